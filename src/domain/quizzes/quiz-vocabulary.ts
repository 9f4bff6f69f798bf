/** The closed vocabularies of a quiz (spec §3): who may see it, and the media of a question. */

export const QUIZ_VISIBILITIES = ['public', 'private', 'draft'] as const;
export type QuizVisibility = (typeof QUIZ_VISIBILITIES)[number];

export const MEDIA_TYPES = ['video', 'youtube', 'image', 'sound', 'document'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
