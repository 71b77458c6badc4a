import { Alert } from "../ui/alert.tsx";

export function ErrorAlert({ error, title = "Something went wrong" }: { error: unknown; title?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  return <Alert title={title}>{message}</Alert>;
}
