"use client";

import { useId } from "react";
import { maxInstancePools } from "@/contract/endpoints/instance-pools.ts";
import { Button } from "../ui/button.tsx";

/** Ordered instance pool: SageMaker tries priority 1 first, then falls back down the list. */
export function GpuPoolEditor({
  pools,
  choices,
  error,
  onChange,
}: {
  pools: string[];
  choices: string[];
  /** The schema's problem with the pool as a whole (its length, a type twice) or one of its types. */
  error?: string;
  onChange: (pools: string[]) => void;
}) {
  const errorId = useId();
  function move(index: number, step: -1 | 1) {
    const next = [...pools];
    const [item] = next.splice(index, 1);
    if (item === undefined) return;
    next.splice(index + step, 0, item);
    onChange(next);
  }
  const unused = choices.filter((choice) => !pools.includes(choice));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">
        GPU instance pool, in priority order (1-{maxInstancePools})
      </legend>
      <ol className="flex flex-col gap-2">
        {pools.map((pool, index) => (
          <li key={pool} className="flex flex-wrap items-center gap-2">
            <span className="w-6 text-right text-sm tabular-nums text-slate-700">{index + 1}.</span>
            <label className="sr-only" htmlFor={`pool-${index}`}>
              Priority {index + 1} instance type
            </label>
            <select
              id={`pool-${index}`}
              value={pool}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => onChange(pools.map((p, i) => (i === index ? event.target.value : p)))}
              className="rounded-md border border-slate-400 bg-white px-2 py-1 font-mono text-sm"
            >
              {[pool, ...unused].map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
            <Button
              variant="secondary"
              size="sm"
              aria-label={`Move ${pool} up`}
              disabled={index === 0}
              onClick={() => move(index, -1)}
            >
              ↑ Up
            </Button>
            <Button
              variant="secondary"
              size="sm"
              aria-label={`Move ${pool} down`}
              disabled={index === pools.length - 1}
              onClick={() => move(index, 1)}
            >
              ↓ Down
            </Button>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Remove ${pool}`}
              disabled={pools.length === 1}
              onClick={() => onChange(pools.filter((_, i) => i !== index))}
            >
              Remove
            </Button>
          </li>
        ))}
      </ol>
      {error && (
        <p id={errorId} className="text-xs text-red-700">
          {error}
        </p>
      )}
      <div>
        <Button
          variant="secondary"
          size="sm"
          disabled={pools.length >= maxInstancePools || unused.length === 0}
          onClick={() => unused[0] && onChange([...pools, unused[0]])}
        >
          Add instance type
        </Button>
      </div>
    </fieldset>
  );
}
