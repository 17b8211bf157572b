import { AppError } from "../../../errors";

/** What the strength estimator needs of @zxcvbn-ts/core: a score from 0 (guessed at once) to 4. */
interface StrengthEstimator {
  check(password: string, userInputs?: (string | number)[]): { score: number };
}

/** GoTrue's messages for its `weak_password` reasons. */
const lengthMessage = (minLength: number) => `Password should be at least ${minLength} characters.`;
const guessableMessage = "Password is known to be weak and easy to guess, please choose a different one.";

/**
 * Words a guesser tries first against this installation, besides the dictionaries: its name. The
 * member's own address is added per check.
 */
const siteWords = ["memory", "box", "memorybox", "memories"];

/**
 * Only the first characters are analysed: matching time grows steeply with length (a 72-character
 * password of symbols took over 100 ms), and a cut-off can only make a password look weaker, never
 * stronger. Fewer l33t substitutions are tried than the library's default of 100, for the same reason.
 */
const estimatorOptions = { maxLength: 48, l33tMaxSubstitutions: 32 };

/**
 * The password policy (ADR 0015): present, at most 72 bytes, at least `minLength` characters, and
 * not too guessable: a zxcvbn score of at least `minStrength` (0 turns that rule off). Refusals are
 * `422 weak_password` with GoTrue's reasons: `length`, or `pwned` for a password found on the
 * common-password lists or otherwise quickly guessed.
 *
 * The estimator's dictionaries are large (about 0.2 s to import and 0.2 s to index, 15 MB of heap),
 * so they are loaded once, on the first check that needs them, never at start-up or on sign-in.
 */
export class PasswordPolicy {
  constructor(readonly options: { minLength: number; minStrength: number }) {}

  /** Throws `validation_failed` (empty, too long) or `weak_password` (too short, too guessable). */
  async assertAllowed(password: string, context: { email?: string } = {}): Promise<void> {
    if (!password) throw new AppError("validation_failed", { message: "Signup requires a valid password" });
    assertPasswordFits(password);
    const lengthReasons = this.lengthReasons(password);
    if (lengthReasons.length > 0) throw weakPassword(lengthMessage(this.options.minLength), lengthReasons);
    // As GoTrue does with its leaked-password check: only a password of the right length is looked up.
    if (await this.tooGuessable(password, context.email)) throw weakPassword(guessableMessage, ["pwned"]);
  }

  /**
   * The length rule alone, for the `weak_password` note on a successful sign-in: the password grant
   * stays free of the estimator (ADR 0015).
   */
  lengthReasons(password: string): string[] {
    return [...password].length < this.options.minLength ? ["length"] : [];
  }

  lengthMessage(): string {
    return lengthMessage(this.options.minLength);
  }

  /** The estimator's score (0–4) for `password`, counting the address and the site's name as known words. */
  async score(password: string, email?: string): Promise<number> {
    const estimator = await loadEstimator();
    return estimator.check(password, [...siteWords, ...addressWords(email)]).score;
  }

  private async tooGuessable(password: string, email: string | undefined): Promise<boolean> {
    if (this.options.minStrength === 0) return false;
    return (await this.score(password, email)) < this.options.minStrength;
  }
}

/** One estimator per process: its dictionaries are the same for every server built in it. */
let sharedEstimator: Promise<StrengthEstimator> | undefined;

function loadEstimator(): Promise<StrengthEstimator> {
  sharedEstimator ??= (async () => {
    const [{ ZxcvbnFactory }, common] = await Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common")]);
    return new ZxcvbnFactory({ ...estimatorOptions, dictionary: common.dictionary, graphs: common.adjacencyGraphs });
  })().catch((error: unknown) => {
    // A failed load is tried again on the next check rather than remembered.
    sharedEstimator = undefined;
    throw error;
  });
  return sharedEstimator;
}

/** argon2 has no length limit, but the reference server (bcrypt) refuses more than 72 bytes; so do we. */
function assertPasswordFits(password: string): void {
  if (Buffer.byteLength(password) > 72)
    throw new AppError("validation_failed", { message: "Password cannot be longer than 72 characters" });
}

function weakPassword(message: string, reasons: string[]): AppError {
  return new AppError("weak_password", { message, extra: { weak_password: { reasons } } });
}

/** The address and its parts (`dave.smith@example.org` → the address, `dave.smith`, `dave`, `smith`, `example`). */
function addressWords(email: string | undefined): string[] {
  if (!email) return [];
  const [local = "", domain = ""] = email.toLowerCase().split("@");
  return [email.toLowerCase(), local, ...local.split(/[^a-z0-9]+/), domain.split(".")[0] ?? ""].filter(
    (word) => word.length >= 3,
  );
}
