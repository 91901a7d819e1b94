import { interactionsRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = interactionsRoute.handlers;
