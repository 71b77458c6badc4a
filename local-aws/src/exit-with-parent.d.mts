export function exitWithParent(parentPid: number): void;
export function exitWithParentArgs(): string[];
