/**
 * What becomes of a picture chosen as an avatar before it is sent. Sites show avatars small and
 * the real service takes PNG, JPEG and WebP only (up to 8 MB), so a larger picture is scaled down
 * whole — never cropped — to AVATAR_SIDE on its longer side, and another kind of image (GIF, BMP)
 * is redrawn as PNG. A picture that fits is sent as it is.
 */
export const AVATAR_SIDE = 512;
const SENT_AS_IS = new Set(['image/png', 'image/jpeg', 'image/webp']);

export interface AvatarPlan {
  /** Redraw the picture (scaled, or in another format) before sending it. */
  redraw: boolean;
  width: number;
  height: number;
  type: string;
}

export function avatarPlan(width: number, height: number, type: string): AvatarPlan {
  const side = Math.max(width, height);
  const scale = side > AVATAR_SIDE ? AVATAR_SIDE / side : 1;
  const kept = SENT_AS_IS.has(type);
  return {
    redraw: scale < 1 || !kept,
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
    type: kept ? type : 'image/png',
  };
}

const NAMES: Record<string, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' };

/** "512 × 384 PNG, scaled down from 4000 × 3000; nothing is cut off." */
export function describePlan(plan: AvatarPlan, from: { width: number; height: number; type: string }): string {
  const size = `${plan.width} × ${plan.height} ${NAMES[plan.type] ?? plan.type}`;
  const scaled = plan.width !== from.width || plan.height !== from.height;
  if (scaled) return `${size}, scaled down from ${from.width} × ${from.height}; nothing is cut off.`;
  if (plan.type !== from.type) return `${size}, redrawn as ${NAMES[plan.type]} (the site takes PNG, JPEG and WebP).`;
  return `${size}, sent as it is.`;
}

/** The file's extension for a type the plan sends. */
export const extensionOf = (type: string) => (type === 'image/jpeg' ? 'jpg' : type === 'image/webp' ? 'webp' : 'png');
