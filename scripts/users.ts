/**
 * Manages the console's users (stored in its store: SQLite under CONSOLE_DATA_DIR, or PostgreSQL at CONSOLE_DATABASE_URL):
 *   npm run users -- add <name> --role viewer|operator
 *   npm run users -- passwd <name>
 *   npm run users -- set-role <name> --role viewer|operator
 *   npm run users -- remove <name>
 *   npm run users -- list
 *   npm run users -- hash            (prints an argon2id hash for CONSOLE_USERS)
 * Passwords are read from the terminal without echo, or from the first line of standard input when piped.
 */
import { parseArgs } from "node:util";
import { roleSchema } from "../contract/auth/session.ts";
import { hashPassword, minimumPasswordLength } from "../server/auth/passwords.ts";
import {
  deleteUser,
  insertUser,
  listUsers,
  updateUser,
  userNameSchema,
  usersConfigured,
} from "../server/auth/users.ts";
import { consoleConfig } from "../server/config.ts";
import { closeConsoleStore, consoleStore, consoleStoreLocation } from "../server/store/console-database.ts";

async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    let input = "";
    for await (const chunk of process.stdin) input += chunk;
    return input.split(/\r?\n/)[0] ?? "";
  }
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      process.stdout.write(question);
      let typed = "";
      process.stdin.setRawMode(true);
      process.stdin.resume();
      const onData = (data: Buffer) => {
        for (const char of data.toString("utf8")) {
          if (char === "\r" || char === "\n") {
            process.stdin.setRawMode(false);
            process.stdin.pause();
            process.stdin.off("data", onData);
            process.stdout.write("\n");
            resolve(typed);
            return;
          }
          if (char === "\u0003") process.exit(130);
          typed = char === "\u007f" ? typed.slice(0, -1) : typed + char;
        }
      };
      process.stdin.on("data", onData);
    });
  const first = await ask(prompt);
  if ((await ask("Repeat it: ")) !== first) throw new Error("The two passwords differ; nothing was changed.");
  return first;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { role: { type: "string" } },
  });
  const [command, name] = positionals;
  const needName = () => userNameSchema.parse(name);
  const role = () => {
    const parsed = roleSchema.safeParse(values.role);
    if (!parsed.success) throw new Error("Give --role viewer or --role operator.");
    return parsed.data;
  };
  const newPasswordHash = async () =>
    hashPassword(await readPassword(`Password (at least ${minimumPasswordLength} characters): `));

  switch (command) {
    case "add": {
      const user = { name: needName(), role: role() };
      const first = !(await usersConfigured(consoleStore(), consoleConfig()));
      await insertUser(consoleStore(), { ...user, passwordHash: await newPasswordHash() });
      console.log(`Added ${user.name} (${user.role}) to ${consoleStoreLocation()}.`);
      if (first) {
        console.log(
          "This is the first user, so the console now requires sign-in: a console already running on this data " +
            "directory switches to it at once (its pages go to /login and its API answers 401 until you sign in).",
        );
      }
      return;
    }
    case "passwd":
      await updateUser(consoleStore(), needName(), { passwordHash: await newPasswordHash() });
      console.log(`Changed the password of ${name}.`);
      return;
    case "set-role":
      await updateUser(consoleStore(), needName(), { role: role() });
      console.log(`${name} is now a ${values.role}.`);
      return;
    case "remove":
      await deleteUser(consoleStore(), needName());
      console.log(`Removed ${name}; their sessions stop working at once.`);
      return;
    case "list":
      for (const user of await listUsers(consoleStore(), consoleConfig()))
        console.log(`${user.name}\t${user.role}\t${user.source}`);
      return;
    case "hash":
      console.log(await newPasswordHash());
      return;
    default:
      throw new Error("Usage: npm run users -- add|passwd|set-role|remove|list|hash [name] [--role viewer|operator]");
  }
}

main()
  .then(() => closeConsoleStore())
  .catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
