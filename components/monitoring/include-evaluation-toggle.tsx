/** The production views' choice to count the console's evaluation traffic too (left out by default). */
export function IncludeEvaluationToggle({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      Include evaluation traffic
    </label>
  );
}
