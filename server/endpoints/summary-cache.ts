import type {
  DescribeEndpointConfigOutput,
  DescribeModelOutput,
  EndpointSummary as SdkEndpointSummary,
} from "@aws-sdk/client-sagemaker";
import { type EndpointSummary, endpointSummarySchema } from "../../contract/endpoints/endpoint.ts";
import type { Store } from "../store/store.ts";
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
 * config name), so a status change costs one DescribeEndpoint instead of three. Summaries are also kept in the
 * store when one is given, so a restarted console does not describe hundreds of endpoints again (Describe* calls
 * are rate limited on AWS).
 */
export class EndpointSummaryCache {
  private readonly summaries = new Map<string, { key: string; summary: EndpointSummary }>();
  private readonly definitions = new Map<string, { key: string; definition: EndpointDefinition }>();

  constructor(private readonly store: Store | null = null) {}

  private listingKey(entry: SdkEndpointSummary): string {
    return `${entry.EndpointStatus}|${entry.LastModifiedTime?.toISOString()}|${entry.CreationTime?.toISOString()}`;
  }

  async summary(entry: SdkEndpointSummary): Promise<EndpointSummary | undefined> {
    const name = entry.EndpointName ?? "";
    const key = this.listingKey(entry);
    const cached = this.summaries.get(name);
    if (cached?.key === key) return cached.summary;
    if (!this.store) return undefined;
    const row = await this.store
      .selectFrom("endpoint_summaries")
      .select(["listing_key", "summary"])
      .where("endpoint_name", "=", name)
      .executeTakeFirst();
    if (row?.listing_key !== key) return undefined;
    const parsed = endpointSummarySchema.safeParse(JSON.parse(row.summary));
    if (!parsed.success) return undefined;
    this.summaries.set(name, { key, summary: parsed.data });
    return parsed.data;
  }

  async storeSummary(entry: SdkEndpointSummary, summary: EndpointSummary): Promise<void> {
    const name = entry.EndpointName ?? "";
    const key = this.listingKey(entry);
    this.summaries.set(name, { key, summary });
    if (!this.store) return;
    const stored = { listing_key: key, summary: JSON.stringify(summary), stored_at: new Date().toISOString() };
    await this.store
      .insertInto("endpoint_summaries")
      .values({ endpoint_name: name, ...stored })
      .onConflict((oc) => oc.column("endpoint_name").doUpdateSet(stored))
      .execute();
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
  async retain(names: ReadonlySet<string>): Promise<void> {
    for (const name of [...this.summaries.keys()]) if (!names.has(name)) this.summaries.delete(name);
    for (const name of [...this.definitions.keys()]) if (!names.has(name)) this.definitions.delete(name);
    if (!this.store) return;
    const stored = await this.store.selectFrom("endpoint_summaries").select("endpoint_name").execute();
    const gone = stored.map((row) => row.endpoint_name).filter((name) => !names.has(name));
    if (gone.length > 0) await this.store.deleteFrom("endpoint_summaries").where("endpoint_name", "in", gone).execute();
  }
}
