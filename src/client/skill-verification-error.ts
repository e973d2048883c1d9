/**
 * The error of a skill file that does not match its entry (SEP-2640), apart from the skills API so
 * that exporting it does not load that API: `client.skills` loads with its first use.
 *
 * @module
 */
import { byClient, McpliteError } from "../errors/error.ts";

/** A skill file that does not match its entry: its content must not be used. */
export class SkillVerificationError extends McpliteError {
  /**
   * Creates the error.
   *
   * @param message What did not match.
   * @param uri The file.
   */
  constructor(message: string, uri: string) {
    super("protocol", message, { data: { uri } });
    this.name = "SkillVerificationError";
    byClient(this); // the client\'s own condition
  }
}
