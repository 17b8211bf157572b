import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const defaults = { webDir: "/srv/web", version: "1.2.3" };

// Issue #32, ADR 0057: the places map's basemap is any MapLibre style the operator names.
describe("MAP_STYLE_URL and MAP_CONTENT_ORIGINS", () => {
  it("leave the map embedded when unset", () => {
    expect(loadConfig({}, defaults).maps).toEqual({ styleUrl: undefined, contentOrigins: [] });
    expect(loadConfig({ MAP_STYLE_URL: "  " }, defaults).maps).toEqual({ styleUrl: undefined, contentOrigins: [] });
  });

  it("take a style's http(s) URL, and the page may fetch from its origin and the content origins", () => {
    const config = loadConfig(
      {
        MAP_STYLE_URL: "https://maps.example.org/styles/liberty/style.json?key=public",
        MAP_CONTENT_ORIGINS: "https://tiles.example.net, https://fonts.example.net/ ,https://maps.example.org",
      },
      defaults,
    );
    expect(config.maps).toEqual({
      styleUrl: "https://maps.example.org/styles/liberty/style.json?key=public",
      contentOrigins: ["https://maps.example.org", "https://tiles.example.net", "https://fonts.example.net"],
    });
    expect(loadConfig({ MAP_STYLE_URL: "http://192.168.1.20:8080/style.json" }, defaults).maps.contentOrigins).toEqual([
      "http://192.168.1.20:8080",
    ]);
  });

  it.each([
    ["MAP_STYLE_URL", { MAP_STYLE_URL: "ftp://maps.example.org/style.json" }],
    ["MAP_STYLE_URL", { MAP_STYLE_URL: "javascript:alert(1)" }],
    ["MAP_STYLE_URL", { MAP_STYLE_URL: "data:application/json,{}" }],
    ["MAP_STYLE_URL", { MAP_STYLE_URL: "maps.example.org/style.json" }],
    ["MAP_STYLE_URL", { MAP_STYLE_URL: "https://user:secret@maps.example.org/style.json" }],
    [
      "MAP_CONTENT_ORIGINS",
      { MAP_STYLE_URL: "https://maps.example.org/s.json", MAP_CONTENT_ORIGINS: "https://tiles.example.net/tiles" },
    ],
    ["MAP_CONTENT_ORIGINS", { MAP_STYLE_URL: "https://maps.example.org/s.json", MAP_CONTENT_ORIGINS: "tiles.example.net" }],
    ["MAP_CONTENT_ORIGINS", { MAP_STYLE_URL: "https://maps.example.org/s.json", MAP_CONTENT_ORIGINS: "wss://tiles.example.net" }],
    ["MAP_CONTENT_ORIGINS", { MAP_STYLE_URL: "https://maps.example.org/s.json", MAP_CONTENT_ORIGINS: "*" }],
    ["MAP_CONTENT_ORIGINS", { MAP_CONTENT_ORIGINS: "https://tiles.example.net" }],
  ])("refuses to start with a wrong %s, naming it", (name, env) => {
    expect(() => loadConfig(env, defaults)).toThrow(ConfigError);
    expect(() => loadConfig(env, defaults)).toThrow(new RegExp(`${name}: `));
  });
});
