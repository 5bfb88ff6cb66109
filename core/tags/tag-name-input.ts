import { boundedText } from "../shared/codecs.js";
import { MAX_TAG_NAME_LENGTH } from "./model.js";

/** A tag name as given ("Pro Customer"), at most MAX_TAG_NAME_LENGTH characters; normalised by the use case. */
export const TagNameInput = boundedText(MAX_TAG_NAME_LENGTH);
