import { groupRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = groupRoute.handlers;
