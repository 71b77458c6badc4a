import type {
  DescribeEndpointConfigOutput,
  DescribeModelOutput,
  EndpointSummary as SdkEndpointSummary,
} from "@aws-sdk/client-sagemaker";
import { type EndpointSummary, endpointSummarySchema } from "../../contract/endpoints/endpoint.ts";
import type { Db } from "../store/database.ts";
import type { ModelRecords } from "./model-records.ts";

/** The config and model an endpoint was created with; SageMaker never changes either in place. */
export interface EndpointDefinition {
  config: DescribeEndpointConfigOutput | null;
  model: DescribeModelOutput | null;
  /** The model's records (its tags), which the console sets only when it creates the model. */
  records: ModelRecords;
}

/**
 * What the endpoints table already knows. A summary is valid while the endpoint's listing entry (status, last
 * modified) is unchanged; the config and model stay valid for the endpoint's whole life (same creation time and
 * config name), so a status change costs one DescribeEndpoint instead of three. Summaries are also kept in SQLite
 * when a database is given, so a restarted console does not describe hundreds of endpoints again (Describe* calls
 * are rate limited on AWS).
 */
export class EndpointSummaryCache {
  private readonly summaries = new Map<string, { key: string; summary: EndpointSummary }>();
  private readonly definitions = new Map<string, { key: string; definition: EndpointDefinition }>();

  constructor(private readonly db: Db | null = null) {}

  private listingKey(entry: SdkEndpointSummary): string {
    return `${entry.EndpointStatus}|${entry.LastModifiedTime?.toISOString()}|${entry.CreationTime?.toISOString()}`;
  }

  summary(entry: SdkEndpointSummary): EndpointSummary | undefined {
    const name = entry.EndpointName ?? "";
    const key = this.listingKey(entry);
    const cached = this.summaries.get(name);
    if (cached?.key === key) return cached.summary;
    if (!this.db) return undefined;
    const row = this.db
      .prepare("SELECT listing_key, summary FROM endpoint_summaries WHERE endpoint_name = ?")
      .get(name) as { listing_key: string; summary: string } | undefined;
    if (row?.listing_key !== key) return undefined;
    const parsed = endpointSummarySchema.safeParse(JSON.parse(row.summary));
    if (!parsed.success) return undefined;
    this.summaries.set(name, { key, summary: parsed.data });
    return parsed.data;
  }

  storeSummary(entry: SdkEndpointSummary, summary: EndpointSummary): void {
    const name = entry.EndpointName ?? "";
    const key = this.listingKey(entry);
    this.summaries.set(name, { key, summary });
    this.db
      ?.prepare(
        `INSERT INTO endpoint_summaries (endpoint_name, listing_key, summary, stored_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (endpoint_name) DO UPDATE SET listing_key = excluded.listing_key, summary = excluded.summary,
         stored_at = excluded.stored_at`,
      )
      .run(name, key, JSON.stringify(summary), new Date().toISOString());
  }

  definition(
    name: string,
    creationTime: Date | undefined,
    configName: string | undefined,
  ): EndpointDefinition | undefined {
    const cached = this.definitions.get(name);
    return cached?.key === `${creationTime?.toISOString()}|${configName}` ? cached.definition : undefined;
  }

  storeDefinition(
    name: string,
    creationTime: Date | undefined,
    configName: string | undefined,
    definition: EndpointDefinition,
  ): void {
    this.definitions.set(name, { key: `${creationTime?.toISOString()}|${configName}`, definition });
  }

  /** Drops endpoints that are no longer listed. */
  retain(names: ReadonlySet<string>): void {
    for (const name of [...this.summaries.keys()]) if (!names.has(name)) this.summaries.delete(name);
    for (const name of [...this.definitions.keys()]) if (!names.has(name)) this.definitions.delete(name);
    if (!this.db) return;
    const stored = this.db.prepare("SELECT endpoint_name FROM endpoint_summaries").all() as { endpoint_name: string }[];
    const remove = this.db.prepare("DELETE FROM endpoint_summaries WHERE endpoint_name = ?");
    this.db.transaction(() => {
      for (const { endpoint_name } of stored) if (!names.has(endpoint_name)) remove.run(endpoint_name);
    })();
  }
}
