"use client";

import { MAX_OPTIONS } from "@decision-console/adapter/contract";
import { Button } from "../ui/button.tsx";
import { TextAreaField, TextField } from "../ui/field.tsx";
import { type DecisionDraft, draftKey, emptyOption, moveItem, type QuestionDraft } from "./decision-draft.ts";

export function DecisionForm({ draft, onChange }: { draft: DecisionDraft; onChange: (draft: DecisionDraft) => void }) {
  const setQuestion = (index: number, question: QuestionDraft) =>
    onChange({ ...draft, questions: draft.questions.map((q, i) => (i === index ? question : q)) });
  const shared = draft.questions.length > 1;
  return (
    <div className="flex flex-col gap-4">
      <TextAreaField
        label={shared ? "State (shared by every question)" : "State"}
        rows={5}
        value={draft.state}
        onChange={(e) => onChange({ ...draft, state: e.target.value })}
      />
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={draft.stateIsJson}
          onChange={(e) => onChange({ ...draft, stateIsJson: e.target.checked })}
        />
        Send the state as JSON (an object or array, rendered with sorted keys)
      </label>
      {draft.questions.map((question, index) => (
        <fieldset key={question.key} className="flex flex-col gap-3 rounded-md border border-slate-300 p-3">
          <legend className="px-1 text-sm font-semibold">Decision {index + 1}</legend>
          <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
            <TextField
              label="Decision id"
              value={question.id}
              onChange={(e) => setQuestion(index, { ...question, id: e.target.value })}
            />
            <TextField
              label="Question"
              value={question.question}
              onChange={(e) => setQuestion(index, { ...question, question: e.target.value })}
            />
          </div>
          <OptionsEditor question={question} onChange={(next) => setQuestion(index, next)} />
          {shared && (
            <div>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => onChange({ ...draft, questions: draft.questions.filter((_, i) => i !== index) })}
              >
                Remove decision {index + 1}
              </Button>
            </div>
          )}
        </fieldset>
      ))}
      <div>
        <Button
          variant="secondary"
          size="sm"
          disabled={draft.questions.length >= 8}
          onClick={() =>
            onChange({
              ...draft,
              questions: [
                ...draft.questions,
                {
                  key: draftKey(),
                  id: `decision-${draft.questions.length + 1}`,
                  question: "",
                  options: [emptyOption(), emptyOption()],
                },
              ],
            })
          }
        >
          Add a decision on the same state
        </Button>
        <p className="mt-1 text-xs text-slate-700">
          With more than one decision the request uses <code>decisions</code>: the state is evaluated once and shared.
        </p>
      </div>
    </div>
  );
}

function OptionsEditor({
  question,
  onChange,
}: {
  question: QuestionDraft;
  onChange: (question: QuestionDraft) => void;
}) {
  const options = question.options;
  const set = (next: QuestionDraft["options"]) => onChange({ ...question, options: next });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">Options (2-{MAX_OPTIONS}, in the order the model sees them)</legend>
      <ol className="flex flex-col gap-2">
        {options.map((option, index) => {
          const name = option.id || `option ${index + 1}`;
          return (
            <li
              key={option.key}
              className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] items-center gap-2 sm:grid-cols-[10rem_minmax(0,1fr)_auto]"
            >
              <input
                aria-label={`Option ${index + 1} id`}
                value={option.id}
                onChange={(e) => set(options.map((o, i) => (i === index ? { ...o, id: e.target.value } : o)))}
                className="w-full rounded-md border border-slate-400 px-2 py-1 font-mono text-sm"
              />
              <input
                aria-label={`Option ${index + 1} description`}
                value={option.description}
                onChange={(e) => set(options.map((o, i) => (i === index ? { ...o, description: e.target.value } : o)))}
                className="w-full rounded-md border border-slate-400 px-2 py-1 text-sm"
              />
              <span className="col-span-2 flex gap-1 sm:col-span-1">
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Move ${name} up`}
                  disabled={index === 0}
                  onClick={() => set(moveItem(options, index, -1))}
                >
                  ↑
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Move ${name} down`}
                  disabled={index === options.length - 1}
                  onClick={() => set(moveItem(options, index, 1))}
                >
                  ↓
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${name}`}
                  disabled={options.length <= 2}
                  onClick={() => set(options.filter((_, i) => i !== index))}
                >
                  ✕
                </Button>
              </span>
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          variant="secondary"
          size="sm"
          disabled={options.length >= MAX_OPTIONS}
          onClick={() => set([...options, emptyOption()])}
        >
          Add option
        </Button>
      </div>
    </fieldset>
  );
}
