import { modelList } from "../../engine/systemone-models.ts";
import type { Route } from "../route.ts";

/** `GET /v1/models`: the loaded model in TypeSafe's list shape and OpenAI's (contract/models.ts). */
const modelsRoute: Route = {
  name: "models",
  method: "GET",
  paths: ["/v1/models"],
  async handle(_body, { engine }) {
    return { status: 200, body: modelList(engine.metadata, engine.loaded.file.path) };
  },
};

export default modelsRoute;
