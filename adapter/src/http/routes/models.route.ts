import { modelList } from "../../engine/systemone-models.ts";
import type { Route } from "../route.ts";

/** `GET /v1/models`: the loaded model in OpenAI's list shape, with the adapter's model metadata under `meta`. */
const modelsRoute: Route = {
  name: "models",
  method: "GET",
  paths: ["/v1/models"],
  async handle(_body, { engine }) {
    return { status: 200, body: modelList(engine.metadata) };
  },
};

export default modelsRoute;
