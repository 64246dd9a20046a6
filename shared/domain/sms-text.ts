/**
 * Limits of a text message. AWS End User Messaging SMS takes a `MessageBody` of at most 1,600 characters and splits it
 * into segments (153 GSM-7 characters, or 67 UCS-2, each once concatenated: 3GPP TS 23.040 §9.2.3.24.1).
 */

/** Most characters in one text. */
export const MAX_SMS_CHARS = 1600;
