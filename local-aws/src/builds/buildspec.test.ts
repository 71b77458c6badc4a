import { describe, expect, it } from "vitest";
import { contextSources, dockerBuildFiles } from "./buildspec.ts";

describe("local CodeBuild's buildspec reading", () => {
  it("finds each docker build's Dockerfile after the build's variables are expanded", () => {
    const buildspec = {
      version: 0.2,
      phases: {
        pre_build: { commands: ["echo $IMAGE_VARIANT"] },
        build: {
          commands: [
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a buildspec's own ${NAME} syntax
            'docker build -t x -f "infra/docker/Dockerfile.${IMAGE_VARIANT}" .',
            "docker build --file=other/Dockerfile .",
            "docker push x",
          ],
        },
      },
    };
    expect(dockerBuildFiles(buildspec, { IMAGE_VARIANT: "cpu" })).toEqual([
      "infra/docker/Dockerfile.cpu",
      "other/Dockerfile",
    ]);
    // An unknown variable stays as bash would leave an unset one visible here: not silently empty.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a buildspec's own ${NAME} syntax
    expect(dockerBuildFiles(buildspec, {})).toEqual(["infra/docker/Dockerfile.${IMAGE_VARIANT}", "other/Dockerfile"]);
  });

  it("reads COPY and ADD sources, skipping comments, stage copies and the destination", () => {
    expect(
      contextSources(
        ["# ADD nothing /x", "COPY --from=0 /a /b", "ADD --link a b /c/", 'copy ["./d/", "/e"]', "RUN cp f g"].join(
          "\n",
        ),
      ),
    ).toEqual(["a", "b", "d"]);
  });
});
