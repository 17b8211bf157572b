export * from "./errors";
export * from "./events";
export * from "./health";
export * from "./memories";
