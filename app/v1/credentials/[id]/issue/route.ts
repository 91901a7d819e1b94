import { issueRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = issueRoute.handlers;
