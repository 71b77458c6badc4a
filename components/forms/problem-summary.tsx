import { Alert } from "../ui/alert.tsx";

/** Every problem of a form in one list; each field's own problem is also shown at the field. */
export function ProblemSummary({
  title,
  problems,
  tone,
}: {
  title: string;
  problems: readonly string[];
  tone?: "danger" | "warning";
}) {
  if (problems.length === 0) return null;
  return (
    <Alert title={title} tone={tone}>
      <ul className="ml-4 list-disc">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </Alert>
  );
}
