import type { Engine } from "../engine/engine.ts";
import { RequestError } from "../engine/request-error.ts";
import type { Exchange } from "./exchange.ts";
import type { Route } from "./route.ts";

/** Which route answers a request: by path, and for POST /invocations by the body's shape. */
export class RouteTable {
  private readonly getPaths = new Map<string, Route>();
  private readonly postPaths = new Map<string, Route>();
  private readonly invocationRoutes: readonly Route[];
  private readonly invocationDefault: Route | undefined;

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      for (const path of route.paths) (route.method === "GET" ? this.getPaths : this.postPaths).set(path, route);
    }
    this.invocationRoutes = routes.filter((route) => route.method === "POST" && route.matchesInvocation);
    this.invocationDefault = routes.find((route) => route.invocationDefault);
  }

  /** The route serving this path directly (GET routes for GET, POST routes for every other method). */
  direct(method: string | undefined, path: string): Route | undefined {
    return (method === "GET" ? this.getPaths : this.postPaths).get(path);
  }

  /** The route for a POST /invocations body: the first that claims its shape, else the default (decisions). */
  forInvocation(body: unknown): Route {
    const claimed =
      typeof body === "object" && body !== null && !Array.isArray(body)
        ? this.invocationRoutes.find((route) => route.matchesInvocation!(body as Record<string, unknown>))
        : undefined;
    const route = claimed ?? this.invocationDefault;
    if (!route) throw new RequestError("Request body matches no API of this adapter");
    return route;
  }
}

/** Runs a route and writes its answer; its errors become the route's error answer. */
export async function runRoute(exchange: Exchange, route: Route, body: unknown, engine: Engine): Promise<void> {
  try {
    const result = await route.handle(body, { engine, requestId: exchange.requestId, log: exchange.line });
    await exchange.send(result, route.name);
  } catch (error) {
    exchange.fail(error, route.name, route.errorBody);
  }
}
