import type { VariantDetail } from "@/contract/endpoints/endpoint.ts";
import { Badge } from "../ui/badge.tsx";
import { Card } from "../ui/card.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";

export function VariantsCard({ variants }: { variants: VariantDetail[] }) {
  return (
    <Card title="Variants and instance pools">
      <div className="flex flex-col gap-4">
        {variants.map((variant) => (
          <div key={variant.name} className="flex flex-col gap-2">
            <h3 className="text-sm font-semibold">
              {variant.name}{" "}
              <span className="font-normal text-slate-700">
                {variant.currentInstanceCount ?? 0} of {variant.desiredInstanceCount ?? "?"} instances
                {variant.instanceType && ` · ${variant.instanceType}`}
                {variant.provisioningTimeoutSeconds !== null &&
                  ` · provisioning timeout ${variant.provisioningTimeoutSeconds} s`}
              </span>
            </h3>
            {variant.pools.length > 0 && (
              <Table caption={`Instance pools of ${variant.name} in priority order`} compact>
                <TableHead plain>
                  <th scope="col">Priority</th>
                  <th scope="col">Instance type</th>
                  <th scope="col">Current count</th>
                  <th scope="col">Role</th>
                </TableHead>
                <TableBody>
                  {variant.pools.map((pool) => (
                    <tr key={pool.instanceType} className={pool.isFallback ? "bg-amber-50" : undefined}>
                      <td>{pool.priority}</td>
                      <td className="font-mono text-xs">{pool.instanceType}</td>
                      <td>{pool.currentInstanceCount ?? "—"}</td>
                      <td>
                        {pool.isFallback ? (
                          <Badge tone="warning">fallback serving</Badge>
                        ) : (pool.currentInstanceCount ?? 0) > 0 ? (
                          <Badge tone="success">serving</Badge>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </TableBody>
              </Table>
            )}
            {variant.statusMessages.length > 0 && (
              <ul className="text-xs text-slate-700">
                {variant.statusMessages.map((message, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: status messages have no identity of their own
                  <li key={index}>
                    {message.status}
                    {message.message && `: ${message.message}`}
                  </li>
                ))}
              </ul>
            )}
          </div>
        ))}
      </div>
    </Card>
  );
}
