import { openApiRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = openApiRoute.handlers;
