// Small rules of English for text made from content the firm edits (docs/product.md §7): a service
// name, a town or a price from the content document follows "a" or "an" by how it is said, not
// by how the code that wrote the sentence guessed it would be spelled.

/** Letters whose name starts with a vowel sound: an "FBAR", an "IRS" notice, an "S corporation". */
const VOWEL_SOUND_LETTERS = new Set(['a', 'e', 'f', 'h', 'i', 'l', 'm', 'n', 'o', 'r', 's', 'x']);

/** Words spelled with a vowel that start with a consonant sound: a "unit", a "European", a "one-time". */
const CONSONANT_SOUND_VOWEL = /^(?:uni(?!n)|use|usu|uti|ura|ure|uri|uro|ubiq|eu|ewe|one\b|one-|once)/;

/** Words spelled with an "h" nobody says: an "hour", an "honest" answer. */
const SILENT_H = /^(?:hour|honest|honou?r|heir)/;

/** How a number is said starts with a vowel sound: "an 8", "an 11", "an 18,000", "an $80" (not "a 1099"). */
function numberTakesAn(digits: string): boolean {
  const whole = digits.replace(/[,_]/g, '').replace(/\..*$/, '');
  if (!/^\d+$/.test(whole)) return false;
  // The group said first: "eighteen" thousand in 18,500, "one" hundred in 180.
  const lead = whole.slice(0, whole.length % 3 || 3);
  return lead.startsWith('8') || lead === '11' || lead === '18';
}

/** "an" or "a" for what follows, by its first sound. */
export function indefiniteArticle(phrase: string): 'a' | 'an' {
  const word = phrase.trim().split(/\s+/)[0] ?? '';
  if (!word) return 'a';
  const number = /^\$?(\d[\d,._]*)/.exec(word);
  if (number) return numberTakesAn(number[1]) ? 'an' : 'a';
  const letters = word.replace(/^[^A-Za-z]+/, '');
  if (!letters) return 'a';
  // An abbreviation said letter by letter ("IRS", "LLC", "S"): by the first letter's name.
  const initialism = /^[A-Z](?:[A-Z0-9&.-]*[A-Z0-9])?(?=$|[^a-z])/.exec(letters);
  if (initialism && (initialism[0].length > 1 || letters.length === 1 || !/[a-z]/.test(letters[1]))) {
    return VOWEL_SOUND_LETTERS.has(letters[0].toLowerCase()) ? 'an' : 'a';
  }
  const lower = letters.toLowerCase();
  if (SILENT_H.test(lower)) return 'an';
  if (CONSONANT_SOUND_VOWEL.test(lower)) return 'a';
  return /^[aeiou]/.test(lower) ? 'an' : 'a';
}

/** The phrase after its article: "an Individual Tax Return", "a Bookkeeping", "an Estate Planning". */
export const withArticle = (phrase: string) => `${indefiniteArticle(phrase)} ${phrase.trim()}`;
