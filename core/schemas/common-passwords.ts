// Passwords an attacker tries first, refused as admin passwords (docs/product.md §6.1, OWASP ASVS
// 2.1.7). Source: the most frequent entries of SecLists' Passwords/Common-Credentials/
// 10-million-password-list-top-1000.txt (github.com/danielmiessler/SecLists) and of NordPass's
// yearly "most common passwords" list, lower-cased, without duplicates; plus this site's own
// words. Short entries still matter: a password is also refused when it is one of them with
// digits or symbols around it ("Password2026!", "qwerty123456"), see isCommonPassword.
const COMMON_PASSWORDS = [
  '123456', '123456789', '12345678', '1234567890', '123456789012', '12345', '1234567', '123123',
  '111111', '000000', '654321', '666666', '121212', '112233', '987654321', '123321', '1q2w3e4r',
  '1q2w3e4r5t', '1q2w3e4r5t6y', '1qaz2wsx', '1qaz2wsx3edc', 'zaq12wsx', 'zaq1zaq1', 'qazwsx',
  'qwerty', 'qwertyuiop', 'qwertyuiopasdfghjkl', 'qwerty123', 'qwe123', 'asdfgh', 'asdfghjkl',
  'zxcvbnm', 'zxcvbn', 'asdf', 'abc', 'abcd', 'abcdef', 'abcdefg', 'abcdefgh', 'abcdefghijkl',
  'password', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pass', 'passwort', 'motdepasse', 'contraseña',
  'mypassword', 'newpassword', 'changeme', 'secret', 'letmein', 'welcome', 'login',
  'admin', 'administrator', 'root', 'toor', 'guest', 'user', 'default', 'test', 'testing', 'demo',
  'iloveyou', 'ilovegod', 'loveme', 'lovely', 'love', 'princess', 'sunshine', 'monkey', 'dragon',
  'master', 'shadow', 'superman', 'batman', 'spiderman', 'starwars', 'pokemon', 'naruto',
  'football', 'baseball', 'basketball', 'soccer', 'hockey', 'golf', 'michael', 'jennifer',
  'jessica', 'ashley', 'daniel', 'thomas', 'charlie', 'jordan', 'hunter', 'robert', 'matthew',
  'andrew', 'joshua', 'nicole', 'michelle', 'amanda', 'hannah', 'buster', 'tigger', 'pepper',
  'ginger', 'maggie', 'freedom', 'whatever', 'trustno1', 'access', 'flower', 'cheese',
  'computer', 'internet', 'killer', 'summer', 'winter', 'spring', 'autumn', 'hello', 'helloworld',
  'mustang', 'harley', 'ferrari', 'corvette', 'chelsea', 'liverpool', 'arsenal', 'yankees',
  'cowboys', 'steelers', 'eagles', 'penguins', 'pirates', 'america', 'usa', 'jesus', 'blessed',
  'qwerty1', 'aa123456', 'a123456', 'abc123', 'abcd1234', 'password1', 'passwordpassword',
  'iloveyou1', 'monkey123', 'dragon123', 'welcome1', 'letmein1', 'admin123', 'adminadmin',
  'azerty', 'q1w2e3r4', 'q1w2e3r4t5', 'q1w2e3r4t5y6',
  // This site's own words: the first guesses against this firm's panel.
  'northgate', 'northgatecpa', 'northgate-cpa', 'warrendale', 'cpa', 'accountant', 'accounting',
  'taxes', 'tax', 'irs', 'pennsylvania', 'pittsburgh',
];

const COMMON = new Set(COMMON_PASSWORDS);

/**
 * True for a password an attacker tries first: one of the list above (case ignored), one of them
 * with only digits and symbols before or after it, or one short unit repeated ("abcabcabcabc").
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.trim().toLowerCase();
  if (COMMON.has(lower)) return true;
  const core = lower.replace(/^[^\p{L}]+/u, '').replace(/[^\p{L}]+$/u, '');
  if (core !== lower && COMMON.has(core)) return true;
  return /^(.{1,8}?)\1+$/su.test(lower);
}
