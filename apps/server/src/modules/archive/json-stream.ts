import type { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { TokenParser, Tokenizer, TokenType } from "@streamparser/json";

export { TokenType };
import { ArchiveRefusedError, refusedZip } from "./archive-source";

/** What a JSON file of an archive may hold, so a hostile one can neither exhaust memory nor stall the server. */
export interface JsonLimits {
  /** Longest string (or key, or number) in characters; far above any text a memory, comment or journal entry holds. */
  maxStringChars: number;
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
}

export const defaultJsonLimits: JsonLimits = { maxStringChars: 1024 * 1024, maxDepth: 32 };

/**
 * The server answers other requests after at most this many bytes parsed: a few dozen memories of
 * a Memory Box manifest, each also checked by its schema as it comes, a few milliseconds' work.
 */
const bytesPerTurn = 16 * 1024;

export interface JsonStreamOptions {
  /** The file's name, for refusals. */
  name: string;
  limits?: JsonLimits;
  /**
   * JSONPath-like selectors (`$.memories.*`) whose values are handed to `onValue` as they
   * complete and not kept in the document: a long list is never held twice. Default `$`: the
   * whole document, once it ends. With selectors, the root object's other keys are read (within
   * the limits) and dropped: neither their values nor their names are kept.
   */
  paths?: string[];
  onValue(value: unknown, key: string | number | undefined, parentKey: string | number | undefined): void;
}

/**
 * Parses a JSON file as it streams in, a few hundred kilobytes at a time with the event loop free
 * in between (JSON.parse of a whole manifest held the server for seconds), refusing at once a
 * string longer or a nesting deeper than the limits. Errors of the container (a damaged ZIP) are
 * refused as such; a document that is not JSON is refused in words.
 */
export async function parseJsonStream(
  stream: Readable,
  options: JsonStreamOptions,
): Promise<{ topLevelKinds: Map<string, TokenType> }> {
  const limits = options.limits ?? defaultJsonLimits;
  const tokenizer = new Tokenizer({ emitPartialTokens: true });
  const parser = new TokenParser({ paths: options.paths ?? ["$"], keepStack: false });
  let depth = 0;
  // The root object's keys and the first token of each one's value (an array's "["), also of
  // values handed on and not kept.
  const topLevelKinds = new Map<string, TokenType>();
  const wanted = wantedRootKeys(options.paths);
  let topLevelKey: string | undefined;
  /** The value under way belongs to a root key no selector names: its tokens never reach the parser. */
  let skipping = false;
  let previous: TokenType | undefined;
  let refusal: Error | undefined;
  const refuse = (error: Error) => {
    refusal ??= error;
    throw error;
  };

  tokenizer.onToken = (parsed) => {
    const { token } = parsed;
    if (token === TokenType.STRING || token === TokenType.NUMBER) {
      if (String(parsed.value).length > limits.maxStringChars) {
        refuse(
          new ArchiveRefusedError({
            id: "errorText.archive.longValue",
            values: { name: options.name, max: limits.maxStringChars },
          }),
        );
      }
      if (parsed.partial) return;
    } else if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      depth += 1;
      if (depth > limits.maxDepth) {
        refuse(
          new ArchiveRefusedError({ id: "errorText.archive.tooDeep", values: { name: options.name, depth: limits.maxDepth } }),
        );
      }
    } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) {
      depth -= 1;
    }
    if (skipping) {
      // Inside an unwanted array or object: it ends with the token that closes it at the root.
      previous = token;
      if (depth === 1) skipping = false;
      return;
    }
    const opensRootKey =
      depth === 1 && token === TokenType.STRING && (previous === TokenType.LEFT_BRACE || previous === TokenType.COMMA);
    if (opensRootKey) {
      topLevelKey = String(parsed.value);
      previous = token;
      // Every unwanted key is given the same name, so the root holds one null however many there are.
      parser.write(wanted && !wanted.has(topLevelKey) ? { ...parsed, value: unwantedKey } : parsed);
      return;
    }
    if (topLevelKey !== undefined && previous === TokenType.COLON) {
      // The value's first token: the depth was raised above already for "[" or "{".
      const key = topLevelKey;
      topLevelKey = undefined;
      previous = token;
      if (!wanted || wanted.has(key)) {
        topLevelKinds.set(key, token);
        parser.write(parsed);
        return;
      }
      skipping = token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET;
      parser.write({ token: TokenType.NULL, value: null });
      return;
    }
    previous = token;
    parser.write(parsed);
  };
  parser.onValue = ({ value, key, stack }) => {
    options.onValue(value, key, stack.at(-1)?.key);
  };
  const notJson = () => new ArchiveRefusedError({ id: "errorText.archive.notJson", values: { name: options.name } });
  tokenizer.onError = (error) => refuse(refusal ?? (error instanceof ArchiveRefusedError ? error : notJson()));
  parser.onError = (error) => refuse(refusal ?? (error instanceof ArchiveRefusedError ? error : notJson()));

  let sinceTurn = 0;
  let first = true;
  try {
    for await (const data of stream) {
      let chunk = data as Uint8Array;
      // A byte order mark, as some writers (Day One's) put first.
      if (first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
      first = false;
      tokenizer.write(chunk);
      sinceTurn += chunk.length;
      if (sinceTurn >= bytesPerTurn) {
        sinceTurn = 0;
        await nextTurn();
      }
    }
  } catch (error) {
    if (refusal) throw refusal;
    if (error instanceof ArchiveRefusedError) throw error;
    throw refusedZip(error);
  } finally {
    stream.destroy();
  }
  if (!parser.isEnded) {
    // Whitespace alone, or a document cut short.
    throw notJson();
  }
  return { topLevelKinds };
}

/** The name every unwanted root key is given on its way to the parser. */
const unwantedKey = "\u0000unwanted";

/**
 * The root keys the selectors reach (`$.memories.*` and `$.format` name `memories` and `format`),
 * or undefined when one selects the whole document and every key is wanted.
 */
function wantedRootKeys(paths: string[] | undefined): Set<string> | undefined {
  if (!paths) return undefined;
  const keys = new Set<string>();
  for (const path of paths) {
    const key = /^\$\.([^.[*]+)/.exec(path)?.[1];
    if (key === undefined) return undefined;
    keys.add(key);
  }
  return keys;
}
