import type {
  InferenceSpecification,
  MetadataProperties,
  ModelApprovalStatus,
  ModelMetrics,
} from "@aws-sdk/client-sagemaker";
import type { Db } from "../database.ts";
import { LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import type { OnTheWire } from "../wire/typed-operations.ts";

/** A model package group as DescribeModelPackageGroup describes it (timestamps in epoch seconds). */
export interface ModelPackageGroupDoc {
  ModelPackageGroupName: string;
  ModelPackageGroupArn: string;
  ModelPackageGroupDescription?: string;
  CreationTime: number;
}

/** A versioned model package as DescribeModelPackage describes it (timestamps in epoch seconds). */
export interface ModelPackageDoc {
  ModelPackageGroupName: string;
  ModelPackageVersion: number;
  ModelPackageArn: string;
  ModelPackageDescription?: string;
  InferenceSpecification?: OnTheWire<InferenceSpecification>;
  ModelApprovalStatus: ModelApprovalStatus;
  ApprovalDescription?: string;
  MetadataProperties?: OnTheWire<MetadataProperties>;
  ModelMetrics?: OnTheWire<ModelMetrics>;
  CustomerMetadataProperties?: Record<string, string>;
  CreationTime: number;
  LastModifiedTime?: number;
}

/**
 * `arn:aws:sagemaker:<region>:<account>:model-package-group/<name>`, the name as given: unlike an endpoint's, a
 * registry ARN keeps the name's case (SageMaker answers `model-package-group/model-test_DEV` for the group
 * `model-test_DEV`, and refuses `sagemaker:DescribeModelPackage` on `model-package/modelPackageGroupTurbine/1` to a
 * policy that names it in lower case).
 */
export function modelPackageGroupArn(region: string, name: string): string {
  return `arn:aws:sagemaker:${region}:${LOCAL_ACCOUNT_ID}:model-package-group/${name}`;
}

/** A version's ARN: `...:model-package/<group>/<version>`, the group's case kept. */
export function modelPackageArn(region: string, group: string, version: number): string {
  return `arn:aws:sagemaker:${region}:${LOCAL_ACCOUNT_ID}:model-package/${group}/${version}`;
}

/**
 * The Model Registry's state: groups, and their versions numbered from 1 in the order they were created. A
 * deleted version's number is not given again (the group keeps its last number).
 */
export class ModelPackageStore {
  constructor(private readonly db: Db) {}

  insertGroup(doc: ModelPackageGroupDoc) {
    this.db
      .prepare("INSERT INTO sm_model_package_groups (name, doc, created_at, last_version) VALUES (?, ?, ?, 0)")
      .run(doc.ModelPackageGroupName, JSON.stringify(doc), doc.CreationTime);
  }

  group(name: string): ModelPackageGroupDoc | undefined {
    const row = this.db.prepare("SELECT doc FROM sm_model_package_groups WHERE name = ?").get(name) as
      | { doc: string }
      | undefined;
    return row ? (JSON.parse(row.doc) as ModelPackageGroupDoc) : undefined;
  }

  groups(): ModelPackageGroupDoc[] {
    const rows = this.db.prepare("SELECT doc FROM sm_model_package_groups ORDER BY created_at, name").all() as {
      doc: string;
    }[];
    return rows.map((row) => JSON.parse(row.doc) as ModelPackageGroupDoc);
  }

  /** Adds the next version of `group` (built by `build` from its number), once per client token. */
  insertVersion(
    group: string,
    clientToken: string | undefined,
    build: (version: number) => ModelPackageDoc,
  ): ModelPackageDoc {
    return this.db.transaction(() => {
      if (clientToken) {
        const existing = this.db
          .prepare("SELECT doc FROM sm_model_packages WHERE group_name = ? AND client_token = ?")
          .get(group, clientToken) as { doc: string } | undefined;
        if (existing) return JSON.parse(existing.doc) as ModelPackageDoc;
      }
      const { last_version } = this.db
        .prepare("SELECT last_version FROM sm_model_package_groups WHERE name = ?")
        .get(group) as { last_version: number };
      const doc = build(last_version + 1);
      this.db
        .prepare(
          "INSERT INTO sm_model_packages (group_name, version, doc, created_at, client_token) VALUES (?, ?, ?, ?, ?)",
        )
        .run(group, doc.ModelPackageVersion, JSON.stringify(doc), doc.CreationTime, clientToken ?? null);
      this.db
        .prepare("UPDATE sm_model_package_groups SET last_version = ? WHERE name = ?")
        .run(last_version + 1, group);
      return doc;
    })();
  }

  version(group: string, version: number): ModelPackageDoc | undefined {
    const row = this.db
      .prepare("SELECT doc FROM sm_model_packages WHERE group_name = ? AND version = ?")
      .get(group, version) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as ModelPackageDoc) : undefined;
  }

  versions(group?: string): ModelPackageDoc[] {
    const rows = (
      group === undefined
        ? this.db.prepare("SELECT doc FROM sm_model_packages ORDER BY created_at, group_name, version").all()
        : this.db.prepare("SELECT doc FROM sm_model_packages WHERE group_name = ? ORDER BY version").all(group)
    ) as { doc: string }[];
    return rows.map((row) => JSON.parse(row.doc) as ModelPackageDoc);
  }

  updateVersion(doc: ModelPackageDoc) {
    this.db
      .prepare("UPDATE sm_model_packages SET doc = ? WHERE group_name = ? AND version = ?")
      .run(JSON.stringify(doc), doc.ModelPackageGroupName, doc.ModelPackageVersion);
  }

  deleteVersion(group: string, version: number) {
    this.db.prepare("DELETE FROM sm_model_packages WHERE group_name = ? AND version = ?").run(group, version);
  }
}
