/** `url` without trailing slashes and without a trailing /api/v1; origin and any other prefix kept. */
export declare function walletApiBaseUrl(url: string): string;
