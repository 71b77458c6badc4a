"use client";

import { useState } from "react";
import { type FormTouch, untouched, withEdited } from "./shown-problems.ts";

/** A form's touch state: `edit(field)` on each change, `submit()` on each submit tried. */
export function useFormTouch<Field extends string>() {
  const [touch, setTouch] = useState<FormTouch<Field>>(untouched);
  return {
    touch,
    edit: (field: Field) => setTouch((current) => withEdited(current, field)),
    submit: () => setTouch((current) => (current.submitted ? current : { ...current, submitted: true })),
  };
}
