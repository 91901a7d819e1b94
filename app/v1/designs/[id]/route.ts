import { designRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = designRoute.handlers;
