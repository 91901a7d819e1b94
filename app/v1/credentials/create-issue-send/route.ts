import { createIssueSendRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = createIssueSendRoute.handlers;
