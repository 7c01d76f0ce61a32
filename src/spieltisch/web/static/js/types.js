// @ts-check
// The shapes the table page and the game pages share, for the type check (nothing runs here).

/**
 * A record of the table's log as a viewer reads it: its `seq`, who did it (`actor`, a
 * participant's id or "auto"), the `command` asked, the `events` it caused, the dice `draws`,
 * and `undoes` (the seq it took back) for an undo.
 * @typedef {{ seq: number, actor: string, command?: any, events?: any[], draws?: Draw[],
 *   undoes?: number | null, hidden?: boolean, claims?: boolean, contact?: any, [key: string]: any }} TableRecord
 */

/** One draw of the fair dice: its place in the stream (`index`), the die's `sides`, the `value`.
 * @typedef {{ index: number, sides: number, value: number, [key: string]: any }} Draw
 */

/** A die as the page shows it: its name (`die`), `sides`, and the `face` or `value` it shows.
 * @typedef {{ die?: string, sides?: number, face?: any, value?: any, [key: string]: any }} ShownDie
 */

/** A person at the table as the server tells it.
 * @typedef {{ id?: string, participant?: string, name?: string | null, role: string,
 *   removed?: boolean, pieces?: string[], [key: string]: any }} Participant
 */

/**
 * What the table page hands the game modules (and the chat): the table's `info` and the
 * game's view (`state`, of the game's own shape `S`), who is looking (`me`, `isGm`), the log's
 * `records`, and the ways to act: `send` a command (resolves to the answer, or null when
 * refused: the error is shown and kept in `lastError`), ask its `odds`, draw the page again
 * (`rerender`).
 * @template [S=any]
 * @typedef {{
 *   readonly info: any, readonly state: S, readonly me: any, readonly isGm: boolean,
 *   readonly records: TableRecord[], readonly table: string, readonly token: string | null,
 *   readonly lastError: any,
 *   actorName(id: string): string,
 *   rerender(): void,
 *   send(command: any, options?: { hidden?: boolean }): Promise<any>,
 *   odds(command: any): Promise<any>,
 *   oddsNow(command: any): any,
 * }} TableContext
 */

/**
 * What a game's page module offers the table page: `render` draws the scene (and may return
 * `{sheets, tools}` for the other regions); the rest are optional readings of the log.
 * @typedef {{
 *   render(body: HTMLElement, ctx: TableContext): any,
 *   diceOf?: (event: any, record: TableRecord, ctx: TableContext) => ShownDie[] | null | undefined,
 *   headline?: (record: TableRecord, ctx: TableContext) => string | null | undefined,
 *   describe?: (event: any, ctx: TableContext, record: TableRecord | null) => string | null | undefined,
 *   summary?: (record: TableRecord, ctx: TableContext) => string | null | undefined,
 *   [key: string]: any,
 * }} GameModule
 */

export {};
