import { groupRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = groupRoute.handlers;
