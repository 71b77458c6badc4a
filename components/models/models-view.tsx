"use client";

import Link from "next/link";
import { ErrorAlert } from "../api/error-text.tsx";
import { useMe } from "../auth/auth-queries.ts";
import { Card, PageHeader } from "../ui/card.tsx";
import { Table, TableBody, TableHead } from "../ui/table.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { groupPage, useModelGroups } from "./model-queries.ts";
import { RegisterVersionForm } from "./register-version-form.tsx";

/** The Model Registry: the console's groups, and (for operators) registering a build's output as a new version. */
export function ModelsView() {
  const groups = useModelGroups();
  const operator = useMe().data?.user?.role === "operator";
  return (
    <>
      <PageHeader
        title="Models"
        description="SageMaker Model Registry: a group per decision model, numbered versions, each with the evaluation it was judged on and its approval. Only Approved versions are offered for deployment."
      />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_28rem]">
        <Card title="Model groups">
          {groups.error && <ErrorAlert title="Could not list model groups" error={groups.error} />}
          {groups.isPending ? (
            <p className="text-sm text-slate-700">Loading model groups…</p>
          ) : groups.data?.groups.length ? (
            <Table caption="Model groups">
              <TableHead>
                <th scope="col">Group</th>
                <th scope="col">Description</th>
                <th scope="col">Created</th>
              </TableHead>
              <TableBody>
                {groups.data.groups.map((group) => (
                  <tr key={group.arn}>
                    <td>
                      <Link className="font-medium text-blue-800 underline" href={groupPage(group.name)}>
                        {group.name}
                      </Link>
                    </td>
                    <td>{group.description ?? "—"}</td>
                    <td>
                      <Timestamp at={group.createdAt} />
                    </td>
                  </tr>
                ))}
              </TableBody>
            </Table>
          ) : (
            <p className="text-sm text-slate-700">
              No model groups yet: register a build&apos;s output as a first version.
            </p>
          )}
        </Card>
        {operator ? (
          <RegisterVersionForm />
        ) : (
          <Card title="Register a version">
            <p className="text-sm text-slate-700">Operators register builds as versions and approve them.</p>
          </Card>
        )}
      </div>
    </>
  );
}
