// Every /v1 route, for the OpenAPI document. app/v1/registry.test.ts fails when a route.ts is missing here.
import type { RouteDefinition } from "@/lib/api/endpoint";
import { groupsRoute } from "./groups/endpoints";
import { groupRoute } from "./groups/[id]/endpoints";
import { designsRoute } from "./designs/endpoints";
import { designRoute } from "./designs/[id]/endpoints";
import { openApiRoute } from "./openapi.json/endpoints";

export const V1_ROUTES: RouteDefinition[] = [groupsRoute, groupRoute, designsRoute, designRoute, openApiRoute];
