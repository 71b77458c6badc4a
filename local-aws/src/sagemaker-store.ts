import type {
  AsyncInferenceConfig,
  DataCaptureConfig,
  DeploymentConfig,
  DescribeModelCommandOutput,
  InstancePoolSummary,
  ProductionVariant,
  ProductionVariantInstanceType,
  ContainerDefinition as SdkContainerDefinition,
  InstancePool as SdkInstancePool,
} from "@aws-sdk/client-sagemaker";
import type { Db } from "./database.ts";
import { validation } from "./wire/aws-error.ts";
import { LOCAL_ACCOUNT_ID } from "./wire/request.ts";
import type { OnTheWire } from "./wire/typed-operations.ts";

export type EndpointStatus = "Creating" | "Updating" | "InService" | "Deleting" | "Failed";

/** The SDK's own shapes, as the store keeps them: on the wire (timestamps in epoch seconds). */
export type ContainerDefinition = OnTheWire<SdkContainerDefinition>;

export type ModelDoc = OnTheWire<DescribeModelCommandOutput> & {
  ModelName: string;
  ModelArn: string;
  CreationTime: number;
};

export type InstancePool = OnTheWire<SdkInstancePool>;

export type ProductionVariantDoc = Omit<OnTheWire<ProductionVariant>, "InstancePools"> & {
  VariantName: string;
  ModelName: string;
  InstancePools?: InstancePool[];
};

/** CreateEndpointConfig's AsyncInferenceConfig, as given (DescribeEndpointConfig returns it the same way). */
export type AsyncInferenceConfigDoc = OnTheWire<AsyncInferenceConfig>;

/** CreateEndpointConfig's DataCaptureConfig, as given. */
export type DataCaptureConfigDoc = OnTheWire<DataCaptureConfig>;

export interface EndpointConfigDoc {
  EndpointConfigName: string;
  EndpointConfigArn: string;
  ProductionVariants: ProductionVariantDoc[];
  /** The shadow variant, as given (CreateEndpointConfig allows one, beside one production variant). */
  ShadowProductionVariants?: ProductionVariantDoc[];
  AsyncInferenceConfig?: AsyncInferenceConfigDoc;
  DataCaptureConfig?: DataCaptureConfigDoc;
  CreationTime: number;
}

/** A running variant as DescribeEndpoint reports it (ProductionVariantSummary). */
export interface VariantState {
  VariantName: string;
  ModelName: string;
  InstanceType?: ProductionVariantInstanceType;
  InstancePools?: OnTheWire<InstancePoolSummary>[];
  CurrentWeight: number;
  DesiredWeight: number;
  CurrentInstanceCount: number;
  DesiredInstanceCount: number;
  DeployedImages: { SpecifiedImage: string; ResolvedImage: string; ResolutionTime: number }[];
}

/** One stage of a variant in a deployment (ProductionVariantStatus). */
export interface VariantStatusEntry {
  Status: "Creating" | "Updating" | "ActivatingTraffic" | "Baking" | "Deleting";
  StatusMessage?: string;
  StartTime: number;
}

/** The new fleet's variant while an UpdateEndpoint is in progress (PendingProductionVariantSummary). */
export interface PendingVariantState extends VariantState {
  VariantStatus: VariantStatusEntry[];
}

/** What DescribeEndpoint reports of deployments: the last DeploymentConfig and the one in progress. */
export interface EndpointDeployment {
  lastDeploymentConfig?: OnTheWire<DeploymentConfig>;
  pending?: {
    EndpointConfigName: string;
    StartTime: number;
    ProductionVariants: PendingVariantState[];
    ShadowProductionVariants?: PendingVariantState[];
  };
}

export interface EndpointRecord {
  name: string;
  configName: string;
  status: EndpointStatus;
  failureReason: string | null;
  variants: VariantState[];
  /** The running shadow variants (DescribeEndpoint's ShadowProductionVariants); none when absent. */
  shadowVariants?: VariantState[];
  deployment: EndpointDeployment;
  createdAt: number;
  updatedAt: number;
}

export type SageMakerKind = "model" | "endpoint-config" | "endpoint" | "transform-job";

export function arnOf(region: string, kind: SageMakerKind, name: string): string {
  return `arn:aws:sagemaker:${region}:${LOCAL_ACCOUNT_ID}:${kind}/${name.toLowerCase()}`;
}

const now = () => Date.now() / 1000;

/**
 * Persistence of models, endpoint configurations, endpoints and tags (SageMaker's control-plane state). Names are
 * case-insensitive, as SageMaker's are (its ARNs carry them in lower case): lookups ignore case, names keep theirs.
 */
export class SageMakerStore {
  constructor(private readonly db: Db) {}

  insertModel(doc: ModelDoc) {
    this.db
      .prepare("INSERT INTO sm_models (name, doc, created_at) VALUES (?, ?, ?)")
      .run(doc.ModelName, JSON.stringify(doc), doc.CreationTime);
  }

  model(name: string): ModelDoc | undefined {
    const row = this.db.prepare("SELECT doc FROM sm_models WHERE lower(name) = lower(?)").get(name) as
      | { doc: string }
      | undefined;
    return row ? (JSON.parse(row.doc) as ModelDoc) : undefined;
  }

  requireModel(name: string, region: string): ModelDoc {
    const model = this.model(name);
    if (!model) throw validation(`Could not find model "${arnOf(region, "model", name)}".`);
    return model;
  }

  deleteModel(name: string) {
    this.db.prepare("DELETE FROM sm_models WHERE lower(name) = lower(?)").run(name);
  }

  insertEndpointConfig(doc: EndpointConfigDoc) {
    this.db
      .prepare("INSERT INTO sm_endpoint_configs (name, doc, created_at) VALUES (?, ?, ?)")
      .run(doc.EndpointConfigName, JSON.stringify(doc), doc.CreationTime);
  }

  endpointConfig(name: string): EndpointConfigDoc | undefined {
    const row = this.db.prepare("SELECT doc FROM sm_endpoint_configs WHERE lower(name) = lower(?)").get(name) as
      | { doc: string }
      | undefined;
    return row ? (JSON.parse(row.doc) as EndpointConfigDoc) : undefined;
  }

  requireEndpointConfig(name: string, region: string): EndpointConfigDoc {
    const config = this.endpointConfig(name);
    if (!config) throw validation(`Could not find endpoint configuration "${arnOf(region, "endpoint-config", name)}".`);
    return config;
  }

  deleteEndpointConfig(name: string) {
    this.db.prepare("DELETE FROM sm_endpoint_configs WHERE lower(name) = lower(?)").run(name);
  }

  insertEndpoint(record: EndpointRecord) {
    this.db
      .prepare(
        `INSERT INTO sm_endpoints (name, config_name, status, failure_reason, variants, shadow_variants, deployment, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        record.name,
        record.configName,
        record.status,
        record.failureReason,
        JSON.stringify(record.variants),
        JSON.stringify(record.shadowVariants ?? []),
        JSON.stringify(record.deployment),
        record.createdAt,
        record.updatedAt,
      );
  }

  endpoint(name: string): EndpointRecord | undefined {
    const row = this.db.prepare("SELECT * FROM sm_endpoints WHERE lower(name) = lower(?)").get(name) as
      | EndpointRow
      | undefined;
    return row ? toRecord(row) : undefined;
  }

  /**
   * The execution role of the model a variant runs, production or shadow (of the endpoint's first variant when
   * `variant` is none of them).
   */
  executionRoleArnOf(endpoint: EndpointRecord | undefined, variant: string | null): string {
    const variants = endpoint?.variants ?? [];
    const all = [...variants, ...(endpoint?.shadowVariants ?? [])];
    const modelName = (all.find((v) => v.VariantName === variant) ?? variants[0])?.ModelName;
    return (modelName ? this.model(modelName)?.ExecutionRoleArn : undefined) ?? "";
  }

  requireEndpoint(name: string): EndpointRecord {
    const endpoint = this.endpoint(name);
    if (!endpoint) throw validation(`Could not find endpoint "${name}".`);
    return endpoint;
  }

  endpoints(): EndpointRecord[] {
    return (this.db.prepare("SELECT * FROM sm_endpoints").all() as EndpointRow[]).map(toRecord);
  }

  updateEndpoint(
    name: string,
    change: {
      status?: EndpointStatus;
      failureReason?: string | null;
      variants?: VariantState[];
      shadowVariants?: VariantState[];
      configName?: string;
      deployment?: EndpointDeployment;
    },
  ) {
    const current = this.requireEndpoint(name);
    this.db
      .prepare(
        "UPDATE sm_endpoints SET status = ?, failure_reason = ?, variants = ?, shadow_variants = ?, config_name = ?, deployment = ?, updated_at = ? WHERE lower(name) = lower(?)",
      )
      .run(
        change.status ?? current.status,
        change.failureReason === undefined ? current.failureReason : change.failureReason,
        JSON.stringify(change.variants ?? current.variants),
        JSON.stringify(change.shadowVariants ?? current.shadowVariants ?? []),
        change.configName ?? current.configName,
        JSON.stringify(change.deployment ?? current.deployment),
        now(),
        name,
      );
  }

  deleteEndpoint(name: string) {
    this.db.prepare("DELETE FROM sm_endpoints WHERE lower(name) = lower(?)").run(name);
  }

  tags(arn: string): { Key: string; Value: string }[] {
    return (
      this.db.prepare("SELECT key, value FROM tags WHERE arn = ? ORDER BY key").all(arn) as {
        key: string;
        value: string;
      }[]
    ).map((tag) => ({ Key: tag.key, Value: tag.value }));
  }

  addTags(arn: string, tags: unknown) {
    if (tags === undefined) return;
    if (!Array.isArray(tags)) throw validation("Tags must be a list of {Key, Value}.");
    const insert = this.db.prepare(
      "INSERT INTO tags (arn, key, value) VALUES (?, ?, ?) ON CONFLICT (arn, key) DO UPDATE SET value = excluded.value",
    );
    for (const tag of tags as { Key?: unknown; Value?: unknown }[]) {
      if (typeof tag?.Key !== "string" || tag.Key === "") throw validation("Every tag needs a non-empty Key.");
      insert.run(arn, tag.Key, typeof tag.Value === "string" ? tag.Value : "");
    }
  }

  deleteTags(arn: string, keys?: string[]) {
    if (keys) for (const key of keys) this.db.prepare("DELETE FROM tags WHERE arn = ? AND key = ?").run(arn, key);
    else this.db.prepare("DELETE FROM tags WHERE arn = ?").run(arn);
  }

  /** Whether an ARN names a resource that exists (AddTags/ListTags refuse unknown ones). */
  exists(arn: string): boolean {
    const group = /:model-package-group\/(.+)$/.exec(arn);
    if (group)
      return this.db.prepare("SELECT 1 FROM sm_model_package_groups WHERE name = ?").get(group[1]) !== undefined;
    const version = /:model-package\/([^/]+)\/(\d+)$/.exec(arn);
    if (version) {
      return (
        this.db
          .prepare("SELECT 1 FROM sm_model_packages WHERE group_name = ? AND version = ?")
          .get(version[1], Number(version[2])) !== undefined
      );
    }
    const match = /:(model|endpoint-config|endpoint|transform-job)\/(.+)$/.exec(arn);
    if (!match) return false;
    const table = {
      model: "sm_models",
      "endpoint-config": "sm_endpoint_configs",
      endpoint: "sm_endpoints",
      "transform-job": "sm_transform_jobs",
    }[match[1] as SageMakerKind];
    return this.db.prepare(`SELECT 1 FROM ${table} WHERE lower(name) = ?`).get(match[2]) !== undefined;
  }
}

interface EndpointRow {
  name: string;
  config_name: string;
  status: EndpointStatus;
  failure_reason: string | null;
  variants: string;
  shadow_variants: string | null;
  deployment: string | null;
  created_at: number;
  updated_at: number;
}

function toRecord(row: EndpointRow): EndpointRecord {
  return {
    name: row.name,
    configName: row.config_name,
    status: row.status,
    failureReason: row.failure_reason,
    variants: JSON.parse(row.variants) as VariantState[],
    shadowVariants: row.shadow_variants ? (JSON.parse(row.shadow_variants) as VariantState[]) : [],
    deployment: row.deployment ? (JSON.parse(row.deployment) as EndpointDeployment) : {},
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
