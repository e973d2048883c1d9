/**
 * The few browser APIs the view uses, typed here so that the view type-checks without the DOM library
 * (Deno's default) and binds to nothing else.
 *
 * @module
 */

/** A `MessageEvent`, as far as the view reads it. */
export interface ViewMessageEvent {
  /** The message. */
  readonly data: unknown;
  /** The window that sent it. */
  readonly source: unknown;
}

/** A window the view posts to (its host). */
export interface PostTarget {
  /** Sends a message. */
  postMessage(message: unknown, targetOrigin: string): void;
}

/** An element's style, as far as theming writes it. */
export interface StyleLike {
  /** Sets a custom property. */
  setProperty(name: string, value: string): void;
  /** The `color-scheme` property. */
  colorScheme: string;
}

/** An element, as far as the view uses one. */
export interface ElementLike {
  /** Its style. */
  readonly style: StyleLike;
  /** `data-*` attributes. */
  readonly dataset: Record<string, string | undefined>;
  /** Its size. */
  getBoundingClientRect(): { width: number; height: number };
  /** Text content (for an injected `<style>`). */
  textContent: string | null;
  /** Sets an attribute. */
  setAttribute(name: string, value: string): void;
  /** Adds a child. */
  appendChild(child: ElementLike): unknown;
}

/** The globals the view reads: its window, document and `ResizeObserver`. */
export interface ViewGlobals {
  /** The window's parent: the host (or the host's sandbox proxy). */
  readonly parent: PostTarget;
  /** Listens for messages. */
  addEventListener(type: "message", listener: (event: ViewMessageEvent) => void): void;
  /** Stops listening. */
  removeEventListener(type: "message", listener: (event: ViewMessageEvent) => void): void;
  /** The document. */
  readonly document: {
    readonly documentElement: ElementLike;
    readonly head: ElementLike;
    createElement(tag: string): ElementLike;
    getElementById(id: string): ElementLike | null;
  };
  /** Observes size changes, where the browser has it. */
  readonly ResizeObserver?: new (callback: () => void) => { observe(target: ElementLike): void; disconnect(): void };
}

/**
 * The view's globals.
 *
 * @returns `globalThis`, typed as the view uses it.
 */
export const view = (): ViewGlobals => globalThis as unknown as ViewGlobals;
