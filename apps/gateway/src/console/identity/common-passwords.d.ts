/**
 * fxa-common-password-list ships no types: this module is its list, front-coded one password a line (each line's
 * first character is how many leading characters it shares with the line before, in base 36; then the rest).
 */
declare module 'fxa-common-password-list/src/encoded-passwords.js' {
  const encoded: string;
  export default encoded;
}
