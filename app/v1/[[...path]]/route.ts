// Any path under /v1 that no route matches: a JSON 404 in the error envelope.
import { unknownRoute } from "@/lib/api/endpoint";

export const GET = unknownRoute;
export const POST = unknownRoute;
export const PUT = unknownRoute;
export const PATCH = unknownRoute;
export const DELETE = unknownRoute;
export const HEAD = unknownRoute;
export const OPTIONS = unknownRoute;
