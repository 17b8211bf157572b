export * from "./account";
export * from "./api-error";
export * from "./comments";
export * from "./errors";
export * from "./events";
export * from "./health";
export * from "./members";
export * from "./memories";
