export function processGroupCommand(file: string, args: string[]): { file: string; args: string[] };
