import { Button } from "./button.tsx";

/** A form's submit button (its label changes while the request runs) beside Cancel. */
export function FormActions({
  label,
  pendingLabel,
  pending,
  disabled = false,
  onCancel,
}: {
  label: string;
  pendingLabel: string;
  pending: boolean;
  disabled?: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="flex gap-2">
      <Button type="submit" disabled={disabled || pending}>
        {pending ? pendingLabel : label}
      </Button>
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
