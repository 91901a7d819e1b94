import { groupsRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = groupsRoute.handlers;
