/** A file that cannot be read: the message becomes the file's `status_details` (English, like the API's errors). */
export class ExtractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExtractError";
  }
}
