import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, cp, mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { healthSchema } from "../../contract/health/health.ts";
import { DecisionConsoleStack } from "../cdk/decision-console-stack.ts";
import { DecisionConsoleHostingStack } from "../cdk/hosting/hosting-stack.ts";
import {
  canRunAsImageUser,
  freePort,
  type Mounts,
  numericUser,
  type RunningContainer,
  startContainer,
} from "../test-support/container-emulator.ts";
import { contextFiles } from "../test-support/docker-context.ts";
import { containerStart, parseDockerfile } from "../test-support/dockerfile.ts";
import { prepareEcsBindMount } from "../test-support/ecs-bind-mount.ts";
import { type RunReplay, replayStage } from "../test-support/stage-replay.ts";

/**
 * The console image as infra/docker/Dockerfile.console builds and starts it, without a Docker engine: the build
 * context is what its .dockerignore lets through; the build stage runs its `next build` RUN as written, with this
 * checkout's node_modules standing in for its `npm install`; the final stage is laid out from its COPY instructions;
 * and its ENTRYPOINT runs with exactly its ENV plus what each test names, as its USER when this process is root.
 * One build serves every test of the file.
 */
const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const DOCKERFILE = "infra/docker/Dockerfile.console";
const dockerfile = parseDockerfile(join(repoRoot, DOCKERFILE));
const start = containerStart(dockerfile);
const imageNode = dockerfile.globalArgs.get("NODE_IMAGE")?.match(/\/node:(\d+\.\d+\.\d+)-/)?.[1];

/**
 * better-sqlite3's addon is tied to the ABI of the Node.js it was built for. The image's build compiles it for the
 * image's Node.js; here the checkout's copy serves when this Node.js loads it, and scripts/test-adapter-node24.sh,
 * which runs this file under the images' Node.js, builds one for it and names it in CONSOLE_IMAGE_TEST_BETTER_SQLITE3.
 */
const betterSqlite3 = process.env.CONSOLE_IMAGE_TEST_BETTER_SQLITE3 || join(repoRoot, "node_modules", "better-sqlite3");
const sqliteLoads =
  spawnSync(process.execPath, ["-e", `new (require(${JSON.stringify(betterSqlite3)}))(":memory:").close()`]).status ===
  0;

/** The AWS settings a deployment gives, pointed at nothing: /api/health calls no AWS service. */
const awsNowhere = {
  AWS_REGION: "eu-west-1",
  AWS_ENDPOINT_URL: "http://127.0.0.1:9",
  AWS_EC2_METADATA_DISABLED: "true",
};
const signIn = {
  CONSOLE_USERS: JSON.stringify([{ name: "ops", role: "operator", password: "a long test password" }]),
  CONSOLE_SESSION_SECRET: randomBytes(36).toString("base64"),
};

let scratch: string;
let imageRoot: string;
let container: RunningContainer | undefined;

/** The image's own start, on a free port as `docker run -p <port>:3000` would publish it (PORT is the image's 3000). */
async function startImage(extraEnv: Record<string, string>): Promise<{ port: number; running: RunningContainer }> {
  const port = await freePort();
  container = startContainer(start, imageRoot, { PORT: String(port), ...awsNowhere, ...extraEnv });
  return { port, running: container };
}

async function health(port: number): Promise<Response | undefined> {
  try {
    return await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) });
  } catch {
    return undefined;
  }
}

async function waitForHealth(port: number, running: RunningContainer, timeoutMs = 60_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && running.child.exitCode === null) {
    const response = await health(port);
    if (response?.status === 200) return response;
    await response?.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no 200 from /api/health:\n${running.output()}`);
}

/** The image's HEALTHCHECK command, run as Docker runs it: in the container, with its environment. */
async function healthcheck(port: number): Promise<number | null> {
  const check = startContainer(start, imageRoot, { PORT: String(port) }, start.healthcheck);
  return check.exited;
}

/** The console's container as the hosting stack's task definition runs it: its user and its task volumes. */
interface HostedContainer {
  User: string;
  MountPoints: { SourceVolume: string; ContainerPath: string; ReadOnly: boolean }[];
}

function hostedContainer(): HostedContainer {
  const app = new App();
  const consoleStack = new DecisionConsoleStack(app, "DecisionConsole");
  const hosting = new DecisionConsoleHostingStack(app, "DecisionConsoleHosting", { consoleStack });
  const tasks = Object.values(Template.fromStack(hosting).findResources("AWS::ECS::TaskDefinition"));
  expect(tasks).toHaveLength(1);
  return (tasks[0]!.Properties as { ContainerDefinitions: HostedContainer[] }).ContainerDefinitions[0]!;
}

let volumeSets = 0;

/** A fresh set of the task's volumes, each laid out as ECS mounts it for this image (prepareEcsBindMount). */
async function taskVolumes(hosted: HostedContainer): Promise<Mounts> {
  const set = join(scratch, `task-volumes-${++volumeSets}`);
  await mkdir(set, { mode: 0o755 });
  const mounts: Record<string, string> = {};
  for (const mount of hosted.MountPoints) {
    mounts[mount.ContainerPath] = join(set, mount.SourceVolume);
    await prepareEcsBindMount(imageRoot, start.volumes, mount.ContainerPath, mounts[mount.ContainerPath]!);
  }
  return mounts;
}

/** The RUN instructions this machine cannot run as written, and what stands in for each. */
function runs(): RunReplay[] {
  return [
    {
      matches: /^apt-get /,
      why: "the compilers better-sqlite3's build needs; its addon for this Node.js is built already (above)",
      standIn: async () => undefined,
    },
    {
      matches: /^npm install /,
      why: "the lockfile's packages: this checkout's node_modules, hard-linked, with better-sqlite3 for this Node.js",
      standIn: async ({ path }) => {
        const target = path("node_modules");
        await run("cp", ["-al", join(repoRoot, "node_modules"), target]).catch(() =>
          run("cp", ["-a", join(repoRoot, "node_modules"), target]),
        );
        // A real copy, so that nothing the build writes there can reach the checkout's files through a link.
        await rm(join(target, "better-sqlite3"), { recursive: true, force: true });
        await cp(betterSqlite3, join(target, "better-sqlite3"), { recursive: true });
      },
    },
    { matches: /node_modules\/\.bin\/next build/, why: "the standalone build itself", asWritten: true },
    {
      matches: /^mkdir -p \//,
      why: "folders made, given owners (when root here) and modes: each command on its mapped path",
      standIn: async ({ command, path }) => {
        for (const part of command.split(" && ")) await fileModeCommand(part, path);
      },
    },
  ];
}

/**
 * One of the commands that make the image's folders, `mkdir -p <paths>`, `chown <uid>:<gid> <path>` or
 * `chmod <octal mode> <path>`, done on the paths as this machine holds them. Owners are set only when this process
 * is root, as only root can; any other command is refused, so a RUN this cannot replay fails the build here too.
 */
async function fileModeCommand(command: string, path: (containerPath: string) => string): Promise<void> {
  const [program, ...args] = command.trim().split(/\s+/);
  const owner = args[0]?.match(/^(\d+):(\d+)$/);
  if (program === "mkdir" && args[0] === "-p" && args.length > 1) {
    for (const folder of args.slice(1)) await mkdir(path(folder), { recursive: true });
  } else if (program === "chown" && owner && args.length === 2) {
    if (process.getuid?.() === 0) await chown(path(args[1]!), Number(owner[1]), Number(owner[2]));
  } else if (program === "chmod" && /^[0-7]{3,4}$/.test(args[0] ?? "") && args.length === 2) {
    await chmod(path(args[1]!), Number.parseInt(args[0]!, 8));
  } else {
    throw new Error(`no replay for "${command}" (only mkdir -p, chown <uid>:<gid> and chmod <octal mode>)`);
  }
}

describe.skipIf(!sqliteLoads)(
  `the console image, built and started as ${DOCKERFILE} says (better-sqlite3 in node_modules must load under this Node.js; scripts/test-adapter-node24.sh builds one for the images' Node.js)`,
  () => {
    beforeAll(async () => {
      scratch = await mkdtemp(join(tmpdir(), "console-image-"));
      // Readable by the image's user, who runs the server below when this process is root.
      await chmod(scratch, 0o755);
      const context = { dir: repoRoot, files: contextFiles(repoRoot, DOCKERFILE) };
      const [build, final] = [dockerfile.stages[0]!, dockerfile.stages.at(-1)!];
      const buildRoot = join(scratch, "build");
      const began = Date.now();
      await replayStage(build, { root: buildRoot, context, runs: runs() });
      console.log(
        `console image: build stage (standalone next build) took ${((Date.now() - began) / 1000).toFixed(1)} s`,
      );
      imageRoot = join(scratch, "image");
      await replayStage(final, { root: imageRoot, context, stages: { [build.name!]: buildRoot }, runs: runs() });
      await rm(buildRoot, { recursive: true, force: true });
    }, 600_000);

    afterEach(async () => {
      await container?.stop();
      container = undefined;
    });

    afterAll(async () => {
      if (scratch) await rm(scratch, { recursive: true, force: true });
    });

    it("answers /api/health with 200 on every interface it listens on, and its HEALTHCHECK passes", async () => {
      expect(start.env.HOST).toBe("0.0.0.0");
      const { port, running } = await startImage(signIn);

      const response = await waitForHealth(port, running);
      const body = healthSchema.parse(await response.json());
      expect(body).toMatchObject({ status: "ok", mode: "aws" });
      expect(body.versions.node).toBe(process.versions.node);
      expect(await healthcheck(port)).toBe(0);
      expect(running.output()).not.toMatch(/EACCES|EROFS|Error:/);
    }, 120_000);

    it.skipIf(process.versions.node !== imageNode)(
      `runs the images' Node.js ${imageNode} (under npm run test:adapter-node24)`,
      async () => {
        const { port, running } = await startImage(signIn);
        const body = healthSchema.parse(await (await waitForHealth(port, running)).json());
        expect(body.versions.node).toBe(imageNode);
      },
      120_000,
    );

    it.skipIf(!canRunAsImageUser(start))(
      `runs as its USER ${start.user}, not root, and keeps its data folder and database to that user`,
      async () => {
        const { port, running } = await startImage(signIn);
        await waitForHealth(port, running);
        const status = await readFile(`/proc/${running.child.pid}/status`, "utf8");
        const user = numericUser(start.user)!;
        expect(status).toMatch(new RegExp(`^Uid:\\s+${user.uid}\\s`, "m"));
        expect(status).toMatch(new RegExp(`^Gid:\\s+${user.gid}\\s`, "m"));
        const dataDir = join(imageRoot, start.env.CONSOLE_DATA_DIR!);
        const folder = await stat(dataDir);
        expect({ uid: folder.uid, mode: folder.mode & 0o777 }).toEqual({ uid: user.uid, mode: 0o700 });
        const database = await stat(join(dataDir, "console.db"));
        expect({ uid: database.uid, mode: database.mode & 0o777 }).toEqual({ uid: user.uid, mode: 0o600 });
        expect((await stat(join(imageRoot, "app", "server.js"))).uid).toBe(0);
      },
      120_000,
    );

    describe.skipIf(!canRunAsImageUser(start))(
      "on Fargate, as the hosting stack's task definition runs it (its user, its task volumes as ECS mounts them)",
      () => {
        let hosted: HostedContainer;
        beforeAll(() => {
          hosted = hostedContainer();
        }, 120_000);

        it("starts and answers /api/health, its database in the data volume and the task's user's alone", async () => {
          const mounts = await taskVolumes(hosted);
          const port = await freePort();
          container = startContainer(
            { ...start, user: hosted.User },
            imageRoot,
            { PORT: String(port), ...awsNowhere, ...signIn },
            start.command,
            mounts,
          );

          await waitForHealth(port, container);
          const database = await stat(join(mounts[start.env.CONSOLE_DATA_DIR!]!, "console.db"));
          expect({ uid: database.uid, mode: database.mode & 0o777 }).toEqual({
            uid: numericUser(hosted.User)!.uid,
            mode: 0o600,
          });
        }, 120_000);

        it("lets the task's user write in every task volume", async () => {
          const mounts = await taskVolumes(hosted);
          const writes: Record<string, number | null> = {};
          for (const mount of hosted.MountPoints) {
            const probe = join(mounts[mount.ContainerPath]!, "probe");
            const write = ["node", "-e", "require('node:fs').writeFileSync(process.argv[1], '')", probe];
            writes[mount.ContainerPath] = await startContainer(
              { ...start, user: hosted.User },
              imageRoot,
              {},
              write,
              mounts,
            ).exited;
          }
          expect(writes).toEqual(Object.fromEntries(hosted.MountPoints.map((mount) => [mount.ContainerPath, 0])));
        }, 60_000);
      },
    );

    it("stops on SIGTERM: it drains, gives up its leases, exits 0, and the HEALTHCHECK then fails", async () => {
      const { port, running } = await startImage(signIn);
      await waitForHealth(port, running);

      const sent = Date.now();
      running.child.kill("SIGTERM");
      expect(await running.exited).toBe(0);
      expect(running.output()).toMatch(/"msg":"background work stopped"/);
      expect(running.output()).toMatch(/"msg":"stopped","signal":"SIGTERM","unfinishedRequests":0/);
      expect(Date.now() - sent).toBeLessThan(10_000);
      expect(await health(port)).toBeUndefined();
      expect(await healthcheck(port)).toBe(1);
    }, 120_000);

    it("refuses to listen beyond loopback without sign-in, in one line, before anything listens", async () => {
      const { port, running } = await startImage({});

      expect(await running.exited).toBe(1);
      const lines = running.output().trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Refusing to listen on 0\.0\.0\.0: no console users are configured.*CONSOLE_USERS/);
      expect(await health(port)).toBeUndefined();
    }, 60_000);

    it("refuses to listen beyond loopback with users but no CONSOLE_SESSION_SECRET", async () => {
      const { running } = await startImage({ CONSOLE_USERS: signIn.CONSOLE_USERS });

      expect(await running.exited).toBe(1);
      expect(running.output().trim()).toMatch(/^Refusing to listen on 0\.0\.0\.0: CONSOLE_SESSION_SECRET is not set\./);
    }, 60_000);

    it("stops on a bad setting, naming it", async () => {
      const { running } = await startImage({ ...signIn, CONSOLE_INVOKE_BURST: "many" });

      expect(await running.exited).not.toBe(0);
      expect(running.output()).toContain("CONSOLE_INVOKE_BURST: must be a number");
    }, 60_000);

    it("holds a better-sqlite3 addon that registers no Node.js environment cleanup hook (nodejs/node#65446)", async () => {
      const addon = await readFile(
        join(imageRoot, "app", "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"),
      );
      expect(addon.includes("RemoveEnvironmentCleanupHook")).toBe(false);
    });

    it("holds linux-x64 native addons only, and none of the project's development packages", async () => {
      const modules = join(imageRoot, "app", "node_modules");
      const packages = (await readdir(modules)).flatMap((name) => (name.startsWith("@") ? [] : [name]));
      const scoped = await Promise.all(
        (await readdir(modules))
          .filter((name) => name.startsWith("@"))
          .map(async (scope) => (await readdir(join(modules, scope))).map((name) => `${scope}/${name}`)),
      );
      const installed = [...packages, ...scoped.flat()];
      const manifest = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as {
        devDependencies: Record<string, string>;
      };
      expect(installed.filter((name) => name in manifest.devDependencies)).toEqual([]);
      expect(installed).toEqual(expect.arrayContaining(["better-sqlite3", "next", "react"]));
      expect(installed.some((name) => name.startsWith("node-llama-cpp") || name.startsWith("@node-llama-cpp"))).toBe(
        false,
      );
      // next.config.ts leaves sharp out of the trace because no page uses next/image.
      expect(installed.filter((name) => name === "sharp" || name.startsWith("@img/"))).toEqual([]);
      const { stdout: imageUsers } = await run("grep", ["-rlE", 'from "next/(image|og)"', "app", "components"], {
        cwd: repoRoot,
      }).catch((error: { stdout: string }) => error);
      expect(imageUsers.trim()).toBe("");

      const { stdout } = await run("find", [modules, "-name", "*.node", "-type", "f"]);
      const addons = stdout.trim().split("\n");
      expect(addons.length).toBeGreaterThan(0);
      for (const addon of addons) {
        const header = (await readFile(addon)).subarray(0, 20);
        // An ELF file (0x7f "ELF") for x86-64 (e_machine 0x3e).
        expect([header.toString("latin1", 1, 4), header.readUInt16LE(18)], addon).toEqual(["ELF", 0x3e]);
      }
    });
  },
);
