import path from "node:path";
import { fileURLToPath } from "node:url";

/** A small documentation tree (both locales) for the simulator's docs answers and `$web_search`. */
export const FIXTURE_DOCS = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/docs");

/** The billing details a test card is saved with (what the card dialog collects). */
export const CARD_CUSTOMER = {
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "+1 555 0100",
  street: "1 Main St",
  city: "San Francisco",
  state: "CA",
  postcode: "94000",
  countryCode: "us",
};

/** The organization's invoice information a card payment needs first (global edition, §6). */
export const INVOICE_INFO = {
  name: "Ada Lovelace Ltd",
  email: "billing@ada.example",
  street: "1 Main Street",
  city: "San Francisco",
  state: "CA",
  postal_code: "94000",
  country_code: "US",
};
