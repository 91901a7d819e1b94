import { issueRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = issueRoute.handlers;
