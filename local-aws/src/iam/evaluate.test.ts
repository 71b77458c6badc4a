import { describe, expect, it } from "vitest";
import type { RequestContext } from "./conditions.ts";
import { evaluate, evaluateAction } from "./evaluate.ts";
import { PolicyError, parsePolicyDocument } from "./policy.ts";

const policy = (...statements: unknown[]) =>
  parsePolicyDocument("test", { Version: "2012-10-17", Statement: statements });
const decide = (statements: unknown[], action: string, resource: string, context: RequestContext = {}) =>
  evaluate([policy(...statements)], { action, resource, context }).decision;
const allow = (extra: Record<string, unknown>) => ({
  Effect: "Allow",
  Action: "s3:GetObject",
  Resource: "*",
  ...extra,
});

describe("IAM policy evaluation (identity-based, one account)", () => {
  it("denies implicitly what no statement allows", () => {
    expect(decide([allow({ Action: "s3:PutObject" })], "s3:GetObject", "arn:aws:s3:::b/k")).toBe("ImplicitlyDenied");
  });

  it("lets an explicit Deny win over any Allow", () => {
    const statements = [allow({}), { Effect: "Deny", Action: "s3:*", Resource: "arn:aws:s3:::b/secret/*" }];
    expect(decide(statements, "s3:GetObject", "arn:aws:s3:::b/public/k")).toBe("Allowed");
    expect(decide(statements, "s3:GetObject", "arn:aws:s3:::b/secret/k")).toBe("ExplicitlyDenied");
  });

  it("matches actions case-insensitively and with wildcards", () => {
    expect(decide([allow({ Action: "sagemaker:describe*" })], "sagemaker:DescribeEndpoint", "*")).toBe("Allowed");
    expect(decide([allow({ Action: "SageMaker:DeleteEndpoint" })], "sagemaker:deleteendpoint", "*")).toBe("Allowed");
    expect(decide([allow({ Action: "sagemaker:Describe?ndpoint" })], "sagemaker:DescribeEndpoint", "*")).toBe(
      "Allowed",
    );
    expect(decide([allow({ Action: "sagemaker:Describe" })], "sagemaker:DescribeEndpoint", "*")).toBe(
      "ImplicitlyDenied",
    );
  });

  it("matches resource ARNs per segment, case-sensitively, and `*` alone matches everything", () => {
    const statements = [
      allow({ Action: "sagemaker:DeleteEndpoint", Resource: "arn:aws:sagemaker:*:123:endpoint/dc-*" }),
    ];
    expect(decide(statements, "sagemaker:DeleteEndpoint", "arn:aws:sagemaker:eu-west-1:123:endpoint/dc-a")).toBe(
      "Allowed",
    );
    expect(decide(statements, "sagemaker:DeleteEndpoint", "arn:aws:sagemaker:eu-west-1:123:endpoint/DC-a")).toBe(
      "ImplicitlyDenied",
    );
    expect(decide(statements, "sagemaker:DeleteEndpoint", "arn:aws:sagemaker:eu-west-1:999:endpoint/dc-a")).toBe(
      "ImplicitlyDenied",
    );
    // A wildcard in the region segment does not reach into the account segment.
    const spanning = [allow({ Resource: "arn:aws:s3:*:b/k" })];
    expect(decide(spanning, "s3:GetObject", "arn:aws:s3:::b/k")).toBe("ImplicitlyDenied");
    const list = (resource: string) => [allow({ Action: "s3:ListAllMyBuckets", Resource: resource })];
    expect(decide(list("*"), "s3:ListAllMyBuckets", "*")).toBe("Allowed");
    expect(decide(list("arn:aws:s3:::*"), "s3:ListAllMyBuckets", "*")).toBe("ImplicitlyDenied");
  });

  it("lets the resource part of an ARN keep its colons", () => {
    const statements = [
      allow({ Action: "logs:GetLogEvents", Resource: "arn:aws:logs:r:1:log-group:/aws/codebuild/p:*" }),
    ];
    expect(decide(statements, "logs:GetLogEvents", "arn:aws:logs:r:1:log-group:/aws/codebuild/p:log-stream:s")).toBe(
      "Allowed",
    );
  });

  it("honours NotAction and NotResource", () => {
    expect(decide([allow({ Action: undefined, NotAction: "s3:DeleteObject" })], "s3:GetObject", "*")).toBe("Allowed");
    expect(decide([allow({ Action: undefined, NotAction: "s3:DeleteObject" })], "s3:DeleteObject", "*")).toBe(
      "ImplicitlyDenied",
    );
    const notResource = [allow({ Resource: undefined, NotResource: "arn:aws:s3:::b/private/*" })];
    expect(decide(notResource, "s3:GetObject", "arn:aws:s3:::b/open")).toBe("Allowed");
    expect(decide(notResource, "s3:GetObject", "arn:aws:s3:::b/private/x")).toBe("ImplicitlyDenied");
  });

  it("needs every key of every operator to match, and any value of a key", () => {
    const statements = [
      allow({
        Condition: {
          StringEquals: {
            "iam:PassedToService": ["sagemaker.amazonaws.com", "codebuild.amazonaws.com"],
            "aws:RequestedRegion": "eu-west-1",
          },
        },
      }),
    ];
    const both = { "iam:PassedToService": "codebuild.amazonaws.com", "aws:RequestedRegion": "eu-west-1" };
    expect(decide(statements, "s3:GetObject", "*", both)).toBe("Allowed");
    expect(decide(statements, "s3:GetObject", "*", { ...both, "aws:RequestedRegion": "us-east-1" })).toBe(
      "ImplicitlyDenied",
    );
  });

  it("reads condition keys case-insensitively but compares values case-sensitively", () => {
    const statements = [allow({ Condition: { StringEquals: { "aws:ResourceTag/Team": "blue" } } })];
    expect(decide(statements, "s3:GetObject", "*", { "AWS:resourcetag/team": "blue" })).toBe("Allowed");
    expect(decide(statements, "s3:GetObject", "*", { "aws:ResourceTag/Team": "Blue" })).toBe("ImplicitlyDenied");
    const ignoreCase = [allow({ Condition: { StringEqualsIgnoreCase: { "aws:ResourceTag/Team": "BLUE" } } })];
    expect(decide(ignoreCase, "s3:GetObject", "*", { "aws:ResourceTag/Team": "blue" })).toBe("Allowed");
  });

  it("treats a missing key as no match for positive operators and as a match for negated ones", () => {
    const like = [allow({ Condition: { StringLike: { "s3:prefix": "*" } } })];
    expect(decide(like, "s3:GetObject", "*", {})).toBe("ImplicitlyDenied");
    const notEquals = [allow({ Condition: { StringNotEquals: { "aws:ResourceTag/env": "prod" } } })];
    expect(decide(notEquals, "s3:GetObject", "*", {})).toBe("Allowed");
    expect(decide(notEquals, "s3:GetObject", "*", { "aws:ResourceTag/env": "prod" })).toBe("ImplicitlyDenied");
    const ifExists = [allow({ Condition: { StringEqualsIfExists: { "aws:ResourceTag/env": "dev" } } })];
    expect(decide(ifExists, "s3:GetObject", "*", {})).toBe("Allowed");
    expect(decide(ifExists, "s3:GetObject", "*", { "aws:ResourceTag/env": "prod" })).toBe("ImplicitlyDenied");
  });

  it("tests presence with Null, given as a string or a boolean", () => {
    const absent = [allow({ Condition: { Null: { "aws:RequestTag/owner": "true" } } })];
    expect(decide(absent, "s3:GetObject", "*", {})).toBe("Allowed");
    expect(decide(absent, "s3:GetObject", "*", { "aws:RequestTag/owner": "x" })).toBe("ImplicitlyDenied");
    const present = [allow({ Condition: { Null: { "aws:RequestTag/owner": false } } })];
    expect(decide(present, "s3:GetObject", "*", { "aws:RequestTag/owner": "x" })).toBe("Allowed");
    expect(decide(present, "s3:GetObject", "*", { "aws:TagKeys": [] })).toBe("ImplicitlyDenied");
  });

  it("applies ForAllValues and ForAnyValue over multivalued keys", () => {
    const all = [allow({ Condition: { "ForAllValues:StringEquals": { "aws:TagKeys": ["team", "env"] } } })];
    expect(decide(all, "s3:GetObject", "*", { "aws:TagKeys": ["team"] })).toBe("Allowed");
    expect(decide(all, "s3:GetObject", "*", { "aws:TagKeys": ["team", "owner"] })).toBe("ImplicitlyDenied");
    expect(decide(all, "s3:GetObject", "*", {})).toBe("Allowed");
    const any = [allow({ Condition: { "ForAnyValue:StringLike": { "sagemaker:InstanceTypes": "ml.g6*" } } })];
    expect(decide(any, "s3:GetObject", "*", { "sagemaker:InstanceTypes": ["ml.c6i.large", "ml.g6.xlarge"] })).toBe(
      "Allowed",
    );
    expect(decide(any, "s3:GetObject", "*", { "sagemaker:InstanceTypes": ["ml.c6i.large"] })).toBe("ImplicitlyDenied");
    expect(decide(any, "s3:GetObject", "*", {})).toBe("ImplicitlyDenied");
  });

  it("compares ARNs with ArnLike/ArnEquals segment by segment", () => {
    const statements = [
      allow({ Condition: { ArnLike: { "iam:AssociatedResourceArn": "arn:aws:sagemaker:*:1:model/dc-*" } } }),
    ];
    expect(
      decide(statements, "s3:GetObject", "*", { "iam:AssociatedResourceArn": "arn:aws:sagemaker:r:1:model/dc-x" }),
    ).toBe("Allowed");
    expect(decide(statements, "s3:GetObject", "*", { "iam:AssociatedResourceArn": "not-an-arn" })).toBe(
      "ImplicitlyDenied",
    );
    const notLike = [
      allow({ Condition: { ArnNotLike: { "iam:AssociatedResourceArn": "arn:aws:sagemaker:*:1:model/dc-*" } } }),
    ];
    expect(
      decide(notLike, "s3:GetObject", "*", { "iam:AssociatedResourceArn": "arn:aws:sagemaker:r:1:model/other" }),
    ).toBe("Allowed");
  });

  it("compares numbers, dates, booleans and addresses by their type", () => {
    const numeric = [allow({ Condition: { NumericLessThanEquals: { "s3:max-keys": "10" } } })];
    expect(decide(numeric, "s3:GetObject", "*", { "s3:max-keys": "9" })).toBe("Allowed");
    expect(decide(numeric, "s3:GetObject", "*", { "s3:max-keys": "11" })).toBe("ImplicitlyDenied");
    expect(decide(numeric, "s3:GetObject", "*", { "s3:max-keys": "ten" })).toBe("ImplicitlyDenied");
    const date = [allow({ Condition: { DateLessThan: { "aws:CurrentTime": "2030-01-01T00:00:00Z" } } })];
    expect(decide(date, "s3:GetObject", "*", { "aws:CurrentTime": "2026-12-01T10:00:00Z" })).toBe("Allowed");
    expect(decide(date, "s3:GetObject", "*", { "aws:CurrentTime": "2031-01-01T00:00:00Z" })).toBe("ImplicitlyDenied");
    const bool = [allow({ Condition: { Bool: { "aws:SecureTransport": "false" } } })];
    expect(decide(bool, "s3:GetObject", "*", { "aws:SecureTransport": "false" })).toBe("Allowed");
    const ip = [allow({ Condition: { IpAddress: { "aws:SourceIp": "127.0.0.0/8" } } })];
    expect(decide(ip, "s3:GetObject", "*", { "aws:SourceIp": "127.0.0.1" })).toBe("Allowed");
    expect(decide(ip, "s3:GetObject", "*", { "aws:SourceIp": "10.0.0.1" })).toBe("ImplicitlyDenied");
  });

  it("refuses at load what it cannot evaluate, instead of ignoring it", () => {
    const load = (statement: unknown) => () => policy(statement);
    expect(load(allow({ Resource: `arn:aws:s3:::b/${"$"}{aws:username}/*` }))).toThrow(PolicyError);
    expect(load(allow({ Principal: "*" }))).toThrow(/Principal is not supported/);
    expect(load(allow({ Condition: { StringSortOf: { k: "v" } } }))).toThrow(/unknown condition operator/);
    expect(load({ Effect: "Allow", Resource: "*" })).toThrow(/exactly one of Action and NotAction/);
    expect(() => parsePolicyDocument("old", { Version: "2008-10-17", Statement: [] })).toThrow(/Version/);
  });

  it("tells an action no resource could allow from one some resource might (operations local mode does not serve)", () => {
    const action = (statements: unknown[], name: string) => evaluateAction([policy(...statements)], name);
    const onPrefix = allow({ Action: "sagemaker:ListModels", Resource: "arn:aws:sagemaker:*:*:model/dc-*" });
    expect(action([onPrefix], "sagemaker:ListModels")).toBe("Allowed");
    expect(
      action(
        [allow({ Action: "sagemaker:List*", Condition: { Bool: { "aws:SecureTransport": "true" } } })],
        "sagemaker:ListModels",
      ),
    ).toBe("Allowed");
    expect(action([onPrefix], "sagemaker:DeleteModel")).toBe("ImplicitlyDenied");
    expect(action([allow({ Action: undefined, NotAction: "sagemaker:*" })], "sagemaker:ListModels")).toBe(
      "ImplicitlyDenied",
    );
    const denyAll = { Effect: "Deny", Action: "sagemaker:*", Resource: "*" };
    expect(action([onPrefix, denyAll], "sagemaker:ListModels")).toBe("ExplicitlyDenied");
    const denySome = { Effect: "Deny", Action: "sagemaker:*", Resource: "arn:aws:sagemaker:*:*:model/secret" };
    expect(action([onPrefix, denySome], "sagemaker:ListModels")).toBe("Allowed");
  });
});
