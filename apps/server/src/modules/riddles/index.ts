/** What other parts of the server use of modules/riddles; anything else in the folder is internal to it. */
export {
  addRiddle,
  editRiddle,
  listAllRiddles,
  type ManageResult,
  moveRiddle,
  rowDefinition,
  setRiddleRetired,
} from "./manage-riddles.ts";
export { riddleContent } from "./riddle-rows.ts";
