import { describe, expect, it } from 'vitest';
import { avatarPlan, describePlan, extensionOf } from '../../renderer/views/users/avatar-image';

describe('avatarPlan', () => {
  it('sends a picture that fits as it is', () => {
    expect(avatarPlan(400, 300, 'image/jpeg')).toEqual({ redraw: false, width: 400, height: 300, type: 'image/jpeg' });
    expect(avatarPlan(512, 512, 'image/webp').redraw).toBe(false);
  });
  it('scales a large one down whole on its longer side, keeping its shape', () => {
    expect(avatarPlan(4000, 3000, 'image/png')).toEqual({ redraw: true, width: 512, height: 384, type: 'image/png' });
    expect(avatarPlan(300, 6000, 'image/jpeg')).toEqual({ redraw: true, width: 26, height: 512, type: 'image/jpeg' });
    expect(avatarPlan(10000, 3, 'image/png')).toMatchObject({ width: 512, height: 1 });
  });
  it('redraws another kind of image as PNG (the real service refuses GIF)', () => {
    expect(avatarPlan(64, 64, 'image/gif')).toEqual({ redraw: true, width: 64, height: 64, type: 'image/png' });
  });
});

describe('describePlan', () => {
  it('says what is sent and why', () => {
    expect(describePlan(avatarPlan(4000, 3000, 'image/png'), { width: 4000, height: 3000, type: 'image/png' })).toBe('512 × 384 PNG, scaled down from 4000 × 3000; nothing is cut off.');
    expect(describePlan(avatarPlan(64, 64, 'image/gif'), { width: 64, height: 64, type: 'image/gif' })).toMatch(/redrawn as PNG/);
    expect(describePlan(avatarPlan(64, 64, 'image/jpeg'), { width: 64, height: 64, type: 'image/jpeg' })).toBe('64 × 64 JPEG, sent as it is.');
    expect(extensionOf('image/jpeg')).toBe('jpg');
  });
});
