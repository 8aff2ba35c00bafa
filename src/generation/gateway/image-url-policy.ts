import { UnsupportedChatRequest } from './openai-chat-request.js';

/**
 * Whether the gateway's wires take images by URL. Off by default (GATEWAY_ALLOW_IMAGE_URLS): a URL
 * makes the provider, or this process where the provider cannot, fetch whatever it names; base64
 * images are always taken.
 */
export interface ImageUrlPolicy {
  readonly allowImageUrls: boolean;
}

export const strictImagePolicy: ImageUrlPolicy = { allowImageUrls: false };

/** `data:…;base64,…`: an image carried in the request itself. */
export function isDataUrl(url: string): boolean {
  return url.startsWith('data:');
}

/** An http(s) URL, the only kind of image URL passed on when the policy allows them. */
export function isHttpUrl(url: string): boolean {
  return /^https?:\/\/\S+$/i.test(url);
}

/** The 400 (invalid_request_error) of an image URL the policy refuses: what to send instead, and the setting that allows URLs. */
export function imageUrlRefusal(instead: string, param: string): UnsupportedChatRequest {
  return new UnsupportedChatRequest(
    `image URLs are not accepted by this gateway: ${instead} (an operator may allow URLs with GATEWAY_ALLOW_IMAGE_URLS=true)`,
    param,
  );
}
