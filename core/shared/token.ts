declare const gives: unique symbol;

/**
 * The symbol a port or value is bound to, carrying in its type what the binding gives, so that
 * dependency lists can be checked against the constructors they feed. At run time, a symbol.
 */
export type Token<T> = symbol & { readonly [gives]: T };

/** Through `Symbol.for`, so that a duplicated module copy still names the same binding. */
export const token = <T>(key: string): Token<T> => Symbol.for(key) as Token<T>;
