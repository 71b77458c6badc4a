import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeOnStores } from "../../../tests/support/store/test-stores.ts";
import { postgresStore } from "../../store/postgres-store.ts";
import { parseCsv } from "./csv.ts";
import { deleteDataset, uploadDataset } from "./dataset-commands.ts";
import { datasetDetail, datasetItems, findDataset, listDatasets } from "./dataset-store.ts";
import { detectFormat, parseDataset } from "./parse-dataset.ts";
import { listSamples, loadSample } from "./samples.ts";

const repoRoot = path.resolve(import.meta.dirname, "../../..");

const decision = (id: string, answer: string, extra: object = {}) =>
  JSON.stringify({
    id,
    state: "A customer asks for a refund without a receipt.",
    question: "Is the refund allowed?",
    options: [
      { id: "no", description: "Not allowed" },
      { id: "yes", description: "Allowed" },
    ],
    answer,
    ...extra,
  });

describe("CSV reader", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, and numbers records by line", () => {
    const records = parseCsv('a,b\r\n"x, y","say ""hi"""\n"two\nlines",z\n\nlast,1');
    expect(records).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["x, y", 'say "hi"'] },
      { line: 3, fields: ["two\nlines", "z"] },
      { line: 6, fields: ["last", "1"] },
    ]);
  });

  it("rejects an unclosed quote and a stray quote with the line", () => {
    expect(() => parseCsv('a\n"open')).toThrow("never closed");
    expect(() => parseCsv('a\nb"c')).toThrow("quote inside an unquoted field");
  });
});

describe("dataset parsing", () => {
  it("detects the format from the file name, else from the first character", () => {
    expect(detectFormat("{}", "set.CSV")).toBe("csv");
    expect(detectFormat("id,state", "set.jsonl")).toBe("jsonl");
    expect(detectFormat('  {"id":1}')).toBe("jsonl");
    expect(detectFormat("id,state")).toBe("csv");
  });

  it("reads SemIf decisions with an answer and keeps category and tier", () => {
    const parsed = parseDataset(`${decision("d1", "no", { category: "policy", tier: "easy" })}\n`, "jsonl");
    expect(parsed.ok && parsed.items).toEqual([
      {
        decision: {
          id: "d1",
          state: "A customer asks for a refund without a receipt.",
          question: "Is the refund allowed?",
          options: [
            { id: "no", description: "Not allowed" },
            { id: "yes", description: "Allowed" },
          ],
        },
        answer: "no",
        category: "policy",
        tier: "easy",
      },
    ]);
  });

  it("names the line of every bad row, counting blank lines, and stores nothing partial", () => {
    const text = [
      decision("d1", "no"),
      "",
      "{not json",
      decision("d2", "maybe"),
      decision("d1", "yes"),
      JSON.stringify({ id: "d3", state: "s", question: "q", options: [{ id: "a", description: "" }], answer: "a" }),
    ].join("\n");
    const parsed = parseDataset(text, "jsonl");
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors.map((error) => error.line)).toEqual([3, 4, 5, 6]);
    expect(!parsed.ok && parsed.errors[1]?.message).toBe('answer: "maybe" is not one of the option ids (no, yes)');
    expect(!parsed.ok && parsed.errors[2]?.message).toBe('id "d1" repeats the id on line 1');
    expect(!parsed.ok && parsed.errors[3]?.message).toBe("options must contain 2-255 entries: options");
  });

  it("says so when a file holds no decisions", () => {
    const parsed = parseDataset("\n\n", "jsonl");
    expect(!parsed.ok && parsed.errors).toEqual([{ line: 1, message: "the file holds no labelled decisions" }]);
  });

  it("reads CSV with pipe-separated or JSON options", () => {
    const csv = [
      "id,state,question,options,answer,category",
      'c1,"Ticket: printer on fire, urgent",Route it,"it: IT desk|facilities: Facilities",facilities,routing',
      `c2,Hello,Intent?,"${JSON.stringify([
        { id: "greet", description: "greeting" },
        { id: "ask", description: "question" },
      ]).replaceAll('"', '""')}",greet,`,
    ].join("\n");
    const parsed = parseDataset(csv, "csv");
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.items[0]?.decision.options).toEqual([
      { id: "it", description: "IT desk" },
      { id: "facilities", description: "Facilities" },
    ]);
    expect(parsed.items[0]?.decision.state).toBe("Ticket: printer on fire, urgent");
    expect(parsed.items[0]?.category).toBe("routing");
    expect(parsed.items[1]).toMatchObject({ answer: "greet", category: null });
  });

  it("reports a CSV header without required columns and rows with the wrong field count", () => {
    expect(parseDataset("id,state\n1,2", "csv")).toMatchObject({
      ok: false,
      errors: [{ line: 1, message: "the header lacks the column(s) question, options, answer" }],
    });
    expect(parseDataset("id,state,question,options,answer\n1,2", "csv")).toMatchObject({
      ok: false,
      errors: [{ line: 2, message: "has 2 fields; the header has 5" }],
    });
  });

  it("turns a labelled systemone request into one decision per question", () => {
    const row = {
      id: "ticket-7",
      state: { subject: "VPN down" },
      questions: {
        urgent: { type: "noul", instructions: "Is it urgent?", criteria: { true: "urgent", false: "can wait" } },
        team: { type: "choice", instructions: "Which team?", criteria: { net: "Network", hr: "People" } },
      },
      expected: { urgent: true, team: "net" },
    };
    const parsed = parseDataset(JSON.stringify(row), "jsonl");
    expect(parsed.ok && parsed.items.map((item) => [item.decision.id, item.answer])).toEqual([
      ["ticket-7.urgent", "yes"],
      ["ticket-7.team", "net"],
    ]);
    expect(parsed.ok && parsed.items[0]?.decision.options).toEqual([
      { id: "yes", description: "urgent" },
      { id: "no", description: "can wait" },
    ]);
  });

  it("rejects a systemone answer outside the question's labels", () => {
    const row = {
      state: "s",
      questions: { q: { type: "score", instructions: "How bad?", criteria: ["low", "high"] } },
    };
    const parsed = parseDataset(JSON.stringify({ ...row, expected: { q: 5 } }), "jsonl");
    expect(!parsed.ok && parsed.errors[0]).toEqual({ line: 1, message: 'expected.q: "5" is not one of 0, 1' });
  });
  it("turns a labelled OpenAI Decisions request into one decision per question, its input as the state", () => {
    const row = {
      id: "ticket-8",
      model: "gpt-6-luna",
      input: [{ role: "user", content: "I was charged twice." }],
      questions: [
        { type: "predicate", name: "refund", instructions: "The customer asks for money back." },
        {
          type: "choice",
          name: "team",
          instructions: "Which team?",
          choices: [{ value: "billing" }, { value: "tech" }],
        },
        { type: "score", name: "urgency", instructions: "How urgent?", levels: [{ label: "low" }, { label: "high" }] },
      ],
      expected: [true, "billing", "high"],
      category: "support",
    };
    const parsed = parseDataset(JSON.stringify(row), "jsonl");
    expect(parsed.ok && parsed.items.map((item) => [item.decision.id, item.answer, item.category])).toEqual([
      ["ticket-8.refund", "true", "support"],
      ["ticket-8.team", "billing", "support"],
      ["ticket-8.urgency", "high", "support"],
    ]);
    expect(parsed.ok && parsed.items[0]?.decision).toEqual({
      id: "ticket-8.refund",
      state: "user: I was charged twice.",
      question: "The customer asks for money back.",
      options: [
        { id: "true", description: "" },
        { id: "false", description: "" },
      ],
    });
  });

  it("gives the same decision items for the same questions asked in System One or OpenAI Decisions", () => {
    const systemOne = {
      id: "t",
      state: "VPN down since 9am.",
      questions: {
        team: { type: "choice", instructions: "Which team?", criteria: { net: "Network", hr: "People" } },
        tier: { type: "choice", instructions: "Which tier?", criteria: { one: null, two: null } },
      },
      expected: { team: "net", tier: "two" },
    };
    const openAi = {
      id: "t",
      input: "VPN down since 9am.",
      questions: [
        {
          type: "choice",
          name: "team",
          instructions: "Which team?",
          choices: [
            { value: "net", description: "Network" },
            { value: "hr", description: "People" },
          ],
        },
        { type: "choice", name: "tier", instructions: "Which tier?", choices: [{ value: "one" }, { value: "two" }] },
      ],
      expected: ["net", "two"],
    };
    const fromSystemOne = parseDataset(JSON.stringify(systemOne), "jsonl");
    const fromOpenAi = parseDataset(JSON.stringify(openAi), "jsonl");
    expect(fromSystemOne.ok && fromSystemOne.items).toHaveLength(2);
    expect(fromOpenAi.ok && fromOpenAi.items).toEqual(fromSystemOne.ok && fromSystemOne.items);
  });

  it("names the line and field of a bad OpenAI Decisions row", () => {
    const question = {
      type: "choice",
      name: "team",
      instructions: "Which team?",
      choices: [{ value: "a" }, { value: "b" }],
    };
    const rows = [
      { input: "x", questions: [question], expected: ["c"] },
      { input: "x", questions: [question, question], expected: ["a"] },
      { input: "x", questions: [question], answer: "a" },
      { input: "x", questions: [question], expected: ["a"], label: "a" },
      {
        input: [{ role: "user", content: [{ type: "input_image", image_url: "https://x/y.png" }] }],
        questions: [question],
        expected: ["a"],
      },
      { input: "x", questions: [{ ...question, instructions: "" }], expected: ["a"] },
      { input: "x", questions: [{ type: "predicate", instructions: "Is it?" }], expected: [] },
    ];
    const parsed = parseDataset(rows.map((row) => JSON.stringify(row)).join("\n"), "jsonl");
    expect(!parsed.ok && parsed.errors).toEqual([
      { line: 1, message: 'expected[0]: "c" is not one of a, b' },
      { line: 2, message: "expected: must list one right answer per question, in question order" },
      { line: 3, message: "expected: must list each question's right answer, in question order" },
      { line: 4, message: 'row: Unrecognized key: "label"' },
      { line: 5, message: "input[0].content[0]: an image part; decision models read text only" },
      { line: 6, message: "questions[0].instructions: decision scoring needs the question's text" },
      { line: 7, message: "expected: must list one right answer per question, in question order" },
    ]);
  });
});

describeOnStores("dataset store and the JevBench sample", (current) => {
  it("loads the vendored JevBench set once, with its tiers and object states intact", async () => {
    const { store } = current();
    const first = await loadSample(store, "jevbench", repoRoot);
    const second = await loadSample(store, "jevbench", repoRoot);
    expect(first.ok && second.ok && second.dataset.id === first.dataset.id).toBe(true);
    if (!first.ok) return;
    const detail = await datasetDetail(store, first.dataset.id);
    expect(detail?.itemCount).toBe(231);
    expect(detail?.tiers).toEqual({ original: 72, easy: 48, hard: 111 });
    const items = await datasetItems(store, first.dataset.id);
    expect(items.filter((item) => typeof item.decision.state !== "string")).toHaveLength(35);
    expect(items[0]?.decision.id).toBe("original-policy-01-0");
  });

  it("stored once when many requests (or replicas) ask for it at the same moment", async () => {
    const { store, location } = current();
    const other = "postgresUrl" in location ? postgresStore(location.postgresUrl) : store;
    try {
      const loads = await Promise.all(
        Array.from({ length: 6 }, (_, i) => loadSample(i % 2 ? other : store, "jevbench", repoRoot)),
      );
      const ids = new Set(loads.map((load) => (load.ok ? load.dataset.id : load.message)));
      expect(ids.size).toBe(1);
      const stored = await store
        .selectFrom("evaluation_datasets")
        .select("id")
        .where("source", "=", "sample")
        .execute();
      expect(stored).toHaveLength(1);
    } finally {
      if (other !== store) await other.destroy();
    }
  });

  it("says where it looked when the sample file is absent, instead of failing", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "datasets-"));
    try {
      // A root one level down, so its ../shared is inside the scratch directory whatever lies beside it.
      const root = path.join(dir, "checkout");
      const [sample] = listSamples(root);
      expect(sample?.available).toBe(false);
      const load = await loadSample(current().store, "jevbench", root);
      expect(!load.ok && load.message).toMatch(/not available here: jevbench.jsonl was not found/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stores a large upload whole, in order, and deletes it with its items while no evaluation uses it", async () => {
    const { store } = current();
    const text = Array.from({ length: 1203 }, (_, i) => decision(`d${i}`, i % 2 ? "yes" : "no")).join("\n");
    const dataset = await uploadDataset(store, { name: "big", text });
    expect(dataset).toMatchObject({ name: "big", source: "upload", format: "jsonl", itemCount: 1203 });
    const items = await datasetItems(store, dataset.id);
    expect(items.map((item) => item.position)).toEqual(Array.from({ length: 1203 }, (_, i) => i));
    expect(items[1202]?.decision.id).toBe("d1202");
    expect(await listDatasets(store)).toEqual([dataset]);
    await deleteDataset(store, dataset.id);
    expect(await findDataset(store, dataset.id)).toBeNull();
    expect(await datasetItems(store, dataset.id)).toEqual([]);
    await expect(deleteDataset(store, dataset.id)).rejects.toMatchObject({ status: 404 });
  });
});
