type Segment = {
    literal: string;
} | {
    param: string;
};
export interface CompiledRoute<T> {
    method: string;
    segments: Segment[];
    value: T;
}
export interface RouteMatch<T> {
    value: T;
    params: Record<string, string>;
}
export interface Matcher<T> {
    match(method: string, path: string): RouteMatch<T> | undefined;
}
export declare function createMatcher<T>(routes: readonly {
    method: string;
    path: string;
    value: T;
}[]): Matcher<T>;
export {};
