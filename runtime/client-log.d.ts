export type LogLevel = "off" | "error" | "warn" | "info" | "debug";
export interface ClientLogger {
    error(message: string, fields?: Record<string, unknown>): void;
    warn(message: string, fields?: Record<string, unknown>): void;
    info(message: string, fields?: Record<string, unknown>): void;
    debug(message: string, fields?: Record<string, unknown>): void;
}
export declare const LOG_LEVELS: LogLevel[];
export declare const LOG_LEVEL_ENV = "CUSTODY_LOG_LEVEL";
/** The level from the option, else the environment (where the runtime has one), else "warn". */
export declare function resolveLogLevel(option: LogLevel | undefined): LogLevel;
export declare function enabled(level: LogLevel, wanted: Exclude<LogLevel, "off">): boolean;
export declare function defaultClientLogger(): ClientLogger;
export declare const REDACTED = "[redacted]";
/** Headers as they may be logged. */
export declare function redactHeaders(headers: Record<string, string>): Record<string, string>;
/** A JSON body as it may be logged: members named like secrets redacted at any depth; non-JSON text by length only. */
export declare function redactBody(text: string | undefined): unknown;
